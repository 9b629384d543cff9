import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '../../api/gen/types.gen';
import { ROLE_LABELS } from '../../lib/roles';
import { paths } from '../../paths';
import { useSignOut } from './session-mutations';

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((word) => word.charAt(0).toUpperCase())
      .join('') || '?'
  );
}

export function UserMenu({ user }: { user: CurrentUser }) {
  const signOut = useSignOut();

  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={`Account of ${user.name}`}>
          <Group gap={8} wrap="nowrap">
            <Avatar color="indigo" radius="xl" size={32}>
              {initialsOf(user.name)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm">
              {user.name}
            </Text>
            {/* On a phone the header has no room for it: the avatar alone opens the menu. */}
            <Box visibleFrom="sm" display="flex">
              <IconChevronDown size={14} />
            </Box>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={500} c="var(--mantine-color-text)" truncate>
            {user.email}
          </Text>
          <Text size="xs" c="dimmed">
            {ROLE_LABELS[user.current_team.role]} of {user.current_team.name}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={paths.profile.getHref()} leftSection={<IconUserCircle size={16} />}>
          Your profile
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
