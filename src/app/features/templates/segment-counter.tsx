import { Group, Text } from '@mantine/core';
import { TEMPLATE_BODY_MAX } from '../../../shared/contract';
import type { SmsMeasurement } from '../../../shared/sms';
import { EncodingBadge } from './encoding-badge';
import { formatCount } from '../../lib/format';

/** "2 segments · 161/306": characters used over the capacity of the segments used. */
export function segmentSummary({ segments, length, per_segment }: SmsMeasurement): string {
  return `${segments} ${segments === 1 ? 'segment' : 'segments'} · ${length}/${segments * per_segment}`;
}

interface SegmentCounterProps {
  measurement: SmsMeasurement;
  /** Code points of the body, against the 1,600 limit. */
  characters: number;
}

export function SegmentCounter({ measurement, characters }: SegmentCounterProps) {
  const overLimit = characters > TEMPLATE_BODY_MAX;
  return (
    <Group justify="space-between" gap="xs" wrap="wrap">
      <Group gap="xs" wrap="nowrap">
        <EncodingBadge encoding={measurement.encoding} />
        <Text size="sm" fw={500} aria-live="polite" data-testid="segment-counter">
          {segmentSummary(measurement)}
        </Text>
      </Group>
      <Text size="xs" c={overLimit ? 'red' : 'dimmed'}>
        {formatCount(characters)} / {formatCount(TEMPLATE_BODY_MAX)} characters
      </Text>
    </Group>
  );
}
