import { Badge, Tooltip } from '@mantine/core';
import type { SmsEncoding } from '../../../shared/sms';

const ENCODINGS: Record<SmsEncoding, { color: string; explanation: string }> = {
  GSM_7BIT: {
    color: 'teal',
    explanation: 'Plain GSM text: 160 characters fit in one SMS, 153 per part when it is longer.',
  },
  GSM_7BIT_EX: {
    color: 'yellow',
    explanation: 'GSM with extension characters (€ [ ] { } ^ ~ | \\): each of those counts as two characters.',
  },
  UTF16: {
    color: 'orange',
    explanation: 'Unicode (emoji or characters outside GSM): only 70 characters fit in one SMS, 67 per part when it is longer.',
  },
};

/** The encoding a message is sent in, with what it costs explained on hover or focus. */
export function EncodingBadge({ encoding }: { encoding: SmsEncoding }) {
  const { color, explanation } = ENCODINGS[encoding];
  return (
    <Tooltip label={explanation} multiline w={280} withArrow events={{ hover: true, focus: true, touch: true }}>
      <Badge color={color} variant="light" tabIndex={0} aria-label={`Encoding ${encoding}: ${explanation}`} style={{ cursor: 'help' }}>
        {encoding}
      </Badge>
    </Tooltip>
  );
}
