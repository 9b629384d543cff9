import { Anchor, Breadcrumbs, Button, Text } from '@mantine/core';
import { IconHistory, IconSend } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, useParams, type LoaderFunctionArgs } from 'react-router';
import { callAttemptColumns, CallAttemptsTable } from '../../components/call-attempts-table';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { useTestWebhook } from '../../features/webhooks/webhook-mutations';
import { webhookQueries } from '../../features/webhooks/webhook-queries';
import { notifyFailure, notifyTestCall } from '../../lib/notify';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { params, request }: LoaderFunctionArgs) {
  if (!params.uuid) return;
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(webhookQueries.detail(params.uuid));
  void queryClient.prefetchQuery(webhookQueries.attempts(params.uuid, { page, per_page: perPage }));
}

export default function WebhookDeliveriesPage() {
  const { uuid = '' } = useParams();
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const webhook = useQuery(webhookQueries.detail(uuid));
  const attempts = useQuery(webhookQueries.attempts(uuid, { page, per_page: perPage }));
  const test = useTestWebhook(uuid);
  const canTest = useTeamRole().can('admin');
  const name = webhook.data?.name ?? 'Webhook';

  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: (attempt) => notifyTestCall({ statusCode: attempt.status_code, latencyMs: attempt.latency_ms, error: attempt.error }),
      onError: (error) => notifyFailure('The test event could not be sent', error),
    });

  return (
    <>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to={paths.webhooks.list.getHref()} size="sm">
          Webhooks
        </Anchor>
        <Text size="sm">{name}</Text>
      </Breadcrumbs>
      <PageHeader
        title={`Deliveries of ${name}`}
        description={webhook.data ? `Every call made to ${webhook.data.url}, newest first.` : undefined}
        actions={
          canTest && (
            <Button leftSection={<IconSend size={16} />} onClick={sendTest} loading={test.isPending} disabled={!webhook.data}>
              Send test event
            </Button>
          )
        }
      />
      <RoleNotice needs="admin" subject="webhooks or send them test events" />
      {webhook.isError ? (
        <ErrorState title="The webhook could not be loaded." error={webhook.error} onRetry={() => void webhook.refetch()} />
      ) : attempts.isPending ? (
        <TableSkeleton columns={callAttemptColumns(true)} />
      ) : attempts.isError ? (
        <ErrorState title="The deliveries could not be loaded." error={attempts.error} onRetry={() => void attempts.refetch()} />
      ) : attempts.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconHistory />}
          title="No calls yet"
          description={
            canTest
              ? 'Calls appear here when a keyword calls this webhook. Send a test event to try your endpoint.'
              : 'Calls appear here when a keyword calls this webhook.'
          }
        />
      ) : (
        <>
          <CallAttemptsTable label="Deliveries" withEvent attempts={attempts.data.data} />
          <PaginationBar
            meta={attempts.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'call', other: 'calls' }}
          />
        </>
      )}
    </>
  );
}
