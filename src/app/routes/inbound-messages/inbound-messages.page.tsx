import { Stack, Title } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { INBOUND_COLUMNS, InboundMessagesTable } from '../../features/inbound/inbound-messages-table';
import { useTestKeyword } from '../../features/inbound/inbound-mutations';
import { inboundQueries } from '../../features/inbound/inbound-queries';
import { KeywordTester } from '../../features/inbound/keyword-tester';
import { notifyFailure } from '../../lib/notify';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(inboundQueries.list({ page, per_page: perPage }));
}

export default function InboundMessagesPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const messages = useQuery(inboundQueries.list({ page, per_page: perPage }));
  const keywordTest = useTestKeyword();
  const canTest = useTeamRole().can('edit');

  return (
    <>
      <PageHeader title="Inbound messages" description="Messages people texted to your numbers, the keyword each matched and what Herald did." />
      <RoleNotice needs="edit" />
      <Stack gap="xl">
        {canTest && (
          <KeywordTester
            result={keywordTest.data}
            onSubmit={(input) => keywordTest.mutateAsync(input, { onError: (error) => notifyFailure('The test message could not be run', error) })}
          />
        )}
        <section aria-labelledby="received-title">
          <Title order={2} size="h4" mb="sm" id="received-title">
            Received
          </Title>
          {messages.isPending ? (
            <TableSkeleton columns={INBOUND_COLUMNS} />
          ) : messages.isError ? (
            <ErrorState title="The inbound messages could not be loaded." error={messages.error} onRetry={() => void messages.refetch()} />
          ) : messages.data.meta.total === 0 ? (
            <EmptyPanel
              icon={<IconInbox />}
              title="No messages received yet"
              description="Messages texted to your numbers appear here, with the keyword they matched."
            />
          ) : (
            <>
              <InboundMessagesTable messages={messages.data.data} />
              <PaginationBar
                meta={messages.data.meta}
                perPage={perPage}
                onPageChange={setPage}
                onPerPageChange={setPerPage}
                noun={{ one: 'message', other: 'messages' }}
              />
            </>
          )}
        </section>
      </Stack>
    </>
  );
}
