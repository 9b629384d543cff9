import { Badge } from '@mantine/core';
import type { ContactGroup } from '../../api/gen/types.gen';

const COLORS: Record<ContactGroup['status'], string> = { Empty: 'gray', Modifying: 'orange', Ready: 'teal' };

/** Modifying: an import or bulk change is under way, so counts may still move. */
export function ContactGroupStatusBadge({ status }: { status: ContactGroup['status'] }) {
  return (
    <Badge color={COLORS[status]} variant="light">
      {status}
    </Badge>
  );
}
