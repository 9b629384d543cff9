import { Stack, Title } from '@mantine/core';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { PER_PAGE_DEFAULT } from '../../../shared/contract/page-size';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { currentUserKeys, currentUserQueries } from '../../features/auth/current-user-queries';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { MEMBER_COLUMNS, MembersTable } from '../../features/team/members-table';
import { teamQueries } from '../../features/team/team-queries';
import { useConfirmMemberRemoval } from '../../features/team/use-confirm-member-removal';
import { useMemberRoleChange } from '../../features/team/use-member-role-change';
import type { CurrentUser } from '../../api/gen/types.gen';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { ShopConnectionsSection } from '../../features/shop-connections/shop-connections-section';
import { InvitationsSection } from './invitations-section';
import { TeamSettingsSection } from './team-settings-section';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(teamQueries.members({ page, per_page: perPage }));
  void queryClient.prefetchQuery(teamQueries.settings());
  // Only admins may read the invitations (403 for the other roles): asked for once the role is known.
  if (queryClient.getQueryData<CurrentUser>(currentUserKeys.me())?.current_team.role === 'admin') {
    void queryClient.prefetchQuery(teamQueries.invitations({ page: 1, per_page: PER_PAGE_DEFAULT }));
  }
}

export default function TeamPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const { can, teamName } = useTeamRole();
  const isAdmin = can('admin');
  const me = useQuery(currentUserQueries.me());
  const members = useQuery(teamQueries.members({ page, per_page: perPage }));
  const roleChange = useMemberRoleChange({ teamName, currentUserUuid: me.data?.uuid });
  const confirmRemoval = useConfirmMemberRemoval(teamName);

  return (
    <>
      <PageHeader title="Team" description={`The people of ${teamName}, what each may do, and the rules every campaign of the team follows.`} />
      <RoleNotice needs="admin" subject="the team’s members, invitations and settings" />
      <Stack gap="xl">
        <section aria-labelledby="members-title">
          <Title order={2} size="h4" mb="sm" id="members-title">
            Members
          </Title>
          {members.isPending ? (
            <TableSkeleton columns={MEMBER_COLUMNS} rows={3} />
          ) : members.isError ? (
            <ErrorState title="The members could not be loaded." error={members.error} onRetry={() => void members.refetch()} />
          ) : (
            <>
              <MembersTable
                members={members.data.data}
                currentUserUuid={me.data?.uuid}
                actions={isAdmin ? { onRoleChange: roleChange.onRoleChange, onRemove: confirmRemoval, pendingChange: roleChange.pendingChange } : undefined}
              />
              <PaginationBar
                meta={members.data.meta}
                perPage={perPage}
                onPageChange={setPage}
                onPerPageChange={setPerPage}
                noun={{ one: 'member', other: 'members' }}
              />
            </>
          )}
        </section>
        {isAdmin && <InvitationsSection />}
        <TeamSettingsSection canChange={isAdmin} />
        {isAdmin && <ShopConnectionsSection />}
      </Stack>
    </>
  );
}
