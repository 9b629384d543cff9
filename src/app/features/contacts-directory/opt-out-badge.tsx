import { Badge } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';

/** A badge keeps its whole word: in a narrow table column it must not shrink to "OPTED…". */
export const WHOLE_BADGE = { root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } } as const;

/** A number in default_optouts: no campaign sends to it. */
export function OptedOutBadge() {
  return (
    <Badge color="red" variant="light" leftSection={<IconBan size={12} aria-hidden />} styles={WHOLE_BADGE}>
      Opted out
    </Badge>
  );
}
