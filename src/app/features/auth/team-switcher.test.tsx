import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../api/gen/types.gen';
import { json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { currentUserKeys } from './current-user-queries';
import { TeamSwitcher } from './team-switcher';

const MARKETING = { uuid: '11111111-1111-4111-8111-111111111111', name: 'Marketing', role: 'admin' as const };
const SUPPORT = { uuid: '22222222-2222-4222-8222-222222222222', name: 'Support', role: 'editor' as const };
const USER: CurrentUser = {
  uuid: '33333333-3333-4333-8333-333333333333',
  name: 'Ada Lovelace',
  email: 'ada@herald.test',
  phone_number: null,
  current_team: MARKETING,
  teams: [MARKETING, SUPPORT],
  app_timezone: 'Europe/London',
  created_at: '2026-11-01 08:00:00',
};

describe('TeamSwitcher', () => {
  it('switches team on the service, then forgets everything read under the previous team', async () => {
    signIn();
    const fetchMock = mockApi(() => json({ data: { ...USER, current_team: SUPPORT } }));
    const queryClient = new QueryClient();
    queryClient.setQueryData(['senders', 'list', { page: 1, per_page: 15 }], { data: ['from Marketing'] });
    queryClient.setQueryData(currentUserKeys.me(), USER);
    const { user } = render(<TeamSwitcher user={USER} />, { queryClient });

    await user.click(screen.getByRole('combobox', { name: 'Team' }));
    await user.click(await screen.findByRole('option', { name: 'Support' }));

    expect(await screen.findByText('You are now working in Support.')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0].url).toBe(`${window.location.origin}/api/2.0/users/switch/team/${SUPPORT.uuid}`);
    expect(queryClient.getQueryData(['senders', 'list', { page: 1, per_page: 15 }])).toBeUndefined();
    expect(queryClient.getQueryData<CurrentUser>(currentUserKeys.me())?.current_team.name).toBe('Support');
  });
});
