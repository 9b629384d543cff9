import { Badge } from '@mantine/core';
import type { ContactImport } from '../../api/gen/types.gen';

const LOOKS: Record<ContactImport['status'], { color: string; label: string }> = {
  receiving: { color: 'blue', label: 'Reading file' },
  merging: { color: 'orange', label: 'Writing' },
  completed: { color: 'teal', label: 'Completed' },
  failed: { color: 'red', label: 'Failed' },
};

export function ContactImportStatusBadge({ status }: { status: ContactImport['status'] }) {
  const look = LOOKS[status];
  return (
    <Badge color={look.color} variant="light">
      {look.label}
    </Badge>
  );
}
