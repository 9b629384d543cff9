import { Select } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import type { CurrentUser } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useSwitchTeam } from './session-mutations';

interface TeamSwitcherProps {
  user: CurrentUser;
  /** Called once the service has switched, e.g. to leave a page that belonged to the previous team. */
  onSwitched?: () => void;
}

export function TeamSwitcher({ user, onSwitched }: TeamSwitcherProps) {
  const switchTeam = useSwitchTeam();
  const teams = user.teams.map((team) => ({ value: team.uuid, label: team.name }));

  const choose = (teamUuid: string | null) => {
    if (!teamUuid || teamUuid === user.current_team.uuid) return;
    switchTeam.mutate(teamUuid, {
      onSuccess: (switched) => {
        notifySuccess(`You are now working in ${switched.current_team.name}.`);
        onSwitched?.();
      },
      onError: (error) => notifyFailure('The team could not be switched', error),
    });
  };

  return (
    <Select
      aria-label="Team"
      data={teams}
      value={user.current_team.uuid}
      onChange={choose}
      allowDeselect={false}
      disabled={switchTeam.isPending}
      leftSection={<IconUsersGroup size={16} />}
      w={{ base: 150, sm: 220 }}
      size="sm"
      comboboxProps={{ withinPortal: true }}
    />
  );
}
