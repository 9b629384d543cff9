import { Badge } from '@mantine/core';
import type { EventDelivery } from '../../api/gen/types.gen';

export const DELIVERY_STATUS_LABELS: Record<EventDelivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };
const COLORS: Record<EventDelivery['status'], string> = { pending: 'blue', delivered: 'teal', failed: 'red' };

export function EventDeliveryStatusBadge({ status }: { status: EventDelivery['status'] }) {
  return (
    <Badge color={COLORS[status]} variant="light" tt="none">
      {DELIVERY_STATUS_LABELS[status]}
    </Badge>
  );
}
