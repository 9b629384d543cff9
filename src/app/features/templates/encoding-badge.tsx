import { Badge, Tooltip } from '@mantine/core';
import type { SmsEncoding } from '../../../shared/sms';

const ENCODINGS: Record<SmsEncoding, { label: string; color: string; explanation: string }> = {
  GSM_7BIT: {
    label: 'GSM-7',
    color: 'teal',
    explanation: 'Plain GSM text: 160 characters fit in one SMS, 153 per part when it is longer.',
  },
  GSM_7BIT_EX: {
    label: 'GSM-7',
    color: 'yellow',
    explanation: 'GSM with extension characters (€ [ ] { } ^ ~ | \\): each of those counts as two characters.',
  },
  UTF16: {
    label: 'Unicode',
    color: 'orange',
    explanation: 'Unicode (emoji or characters outside GSM): only 70 characters fit in one SMS, 67 per part when it is longer.',
  },
};

/** The encoding as people name it ("GSM-7", "Unicode"), not the service's code. */
export const encodingLabel = (encoding: SmsEncoding): string => ENCODINGS[encoding].label;

/** The encoding a message is sent in, with what it costs explained on hover or focus. */
export function EncodingBadge({ encoding }: { encoding: SmsEncoding }) {
  const { label, color, explanation } = ENCODINGS[encoding];
  return (
    <Tooltip label={explanation} multiline w={280} withArrow events={{ hover: true, focus: true, touch: true }}>
      <Badge color={color} variant="light" tabIndex={0} aria-label={`Encoding ${label}: ${explanation}`} style={{ cursor: 'help' }}>
        {label}
      </Badge>
    </Tooltip>
  );
}
