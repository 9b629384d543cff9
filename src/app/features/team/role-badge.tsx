import { Badge } from '@mantine/core';
import { ROLE_LABELS, type Role } from '../../lib/roles';

const COLORS: Record<Role, string> = { admin: 'indigo', editor: 'teal', viewer: 'gray' };

export function RoleBadge({ role }: { role: Role }) {
  return (
    <Badge color={COLORS[role]} variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {ROLE_LABELS[role]}
    </Badge>
  );
}
