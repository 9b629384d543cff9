import { Button } from '@mantine/core';
import { IconId, IconPlus } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { Link } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { senderQueries } from '../../features/senders/sender-queries';
import { SENDER_COLUMNS, SendersTable } from '../../features/senders/senders-table';
import { useConfirmSenderDeletion } from '../../features/senders/use-confirm-sender-deletion';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(senderQueries.list({ page, per_page: perPage }));
}

export default function SendersListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const senders = useQuery(senderQueries.list({ page, per_page: perPage }));
  const confirmDeletion = useConfirmSenderDeletion();
  const canChange = useTeamRole().can('admin');

  const newSenderButton = canChange && (
    <Button component={Link} to={paths.senders.new.getHref()} leftSection={<IconPlus size={16} />}>
      New sender
    </Button>
  );

  return (
    <>
      <PageHeader title="Senders" description="The names recipients' handsets show as the originator of your messages." actions={newSenderButton} />
      <RoleNotice needs="admin" subject="senders" />
      {senders.isPending ? (
        <TableSkeleton columns={SENDER_COLUMNS} />
      ) : senders.isError ? (
        <ErrorState title="The senders could not be loaded." error={senders.error} onRetry={() => void senders.refetch()} />
      ) : senders.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconId />}
          title="No senders yet"
          description={canChange ? 'Add a sender to use it in templates and campaigns.' : 'Senders an admin adds show here.'}
          action={newSenderButton || undefined}
        />
      ) : (
        <>
          <SendersTable senders={senders.data.data} onDelete={canChange ? confirmDeletion : undefined} />
          <PaginationBar
            meta={senders.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'sender', other: 'senders' }}
          />
        </>
      )}
    </>
  );
}
