import { Paper, Stack } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import type { ApiTokenInput } from '../../../shared/contract';
import type { CreatedApiToken } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { ApiTokenForm } from '../../features/api-tokens/api-token-form';
import { useCreateApiToken } from '../../features/api-tokens/api-token-mutations';
import { apiTokenQueries } from '../../features/api-tokens/api-token-queries';
import { API_TOKEN_COLUMNS, ApiTokensTable } from '../../features/api-tokens/api-tokens-table';
import { CreatedTokenNotice } from '../../features/api-tokens/created-token-notice';
import { useConfirmTokenRevocation } from '../../features/api-tokens/use-confirm-token-revocation';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { notifyFailure } from '../../lib/notify';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(apiTokenQueries.list({ page, per_page: perPage }));
  void queryClient.prefetchQuery(currentUserQueries.me());
}

export default function ApiTokensPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const tokens = useQuery(apiTokenQueries.list({ page, per_page: perPage }));
  const me = useQuery(currentUserQueries.me());
  const teamNames = useMemo(() => new Map((me.data?.teams ?? []).map((team) => [team.uuid, team.name])), [me.data]);
  const creation = useCreateApiToken();
  const confirmRevocation = useConfirmTokenRevocation();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  const create = (input: ApiTokenInput) =>
    creation.mutateAsync(input, {
      onSuccess: setCreated,
      onError: (error) => notifyFailure('The token could not be created', error),
    });

  return (
    <>
      <PageHeader
        title="API tokens"
        description="Personal tokens let your own systems call the Herald API as you, in the team each was made in. Send one as “Authorization: Bearer <token>”."
      />
      <Stack gap="lg">
        {me.data && (
          <Paper withBorder p="lg" radius="md">
            <ApiTokenForm timeZone={me.data.app_timezone} teamName={me.data.current_team.name} onSubmit={create} />
          </Paper>
        )}
        {created && <CreatedTokenNotice token={created} onDismiss={() => setCreated(null)} />}
        {tokens.isPending ? (
          <TableSkeleton columns={API_TOKEN_COLUMNS} rows={3} />
        ) : tokens.isError ? (
          <ErrorState title="The API tokens could not be loaded." error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : tokens.data.meta.total === 0 ? (
          <EmptyPanel icon={<IconKey />} title="No API tokens yet" description="Create one above for each system that calls Herald." />
        ) : (
          <div>
            <ApiTokensTable
              tokens={tokens.data.data}
              teamNames={teamNames}
              timeZone={me.data?.app_timezone ?? 'UTC'}
              readAt={tokens.dataUpdatedAt}
              onRevoke={confirmRevocation}
            />
            <PaginationBar
              meta={tokens.data.meta}
              perPage={perPage}
              onPageChange={setPage}
              onPerPageChange={setPerPage}
              noun={{ one: 'token', other: 'tokens' }}
            />
          </div>
        )}
      </Stack>
    </>
  );
}
