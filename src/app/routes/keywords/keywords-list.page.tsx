import { Button } from '@mantine/core';
import { IconFlask, IconMessage2, IconPlus } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, type LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { keywordQueries } from '../../features/keywords/keyword-queries';
import { KEYWORD_COLUMNS, KeywordsTable } from '../../features/keywords/keywords-table';
import { useConfirmKeywordDeletion } from '../../features/keywords/use-confirm-keyword-deletion';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';
import { prefetchKeywordTargets, useKeywordTargets } from './use-keyword-targets';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(keywordQueries.list({ page, per_page: perPage }));
  prefetchKeywordTargets(queryClient);
}

export default function KeywordsListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const keywords = useQuery(keywordQueries.list({ page, per_page: perPage }));
  const { groupNames, webhookNames } = useKeywordTargets();
  const confirmDeletion = useConfirmKeywordDeletion();
  const canEdit = useTeamRole().can('edit');

  const newKeywordButton = canEdit && (
    <Button component={Link} to={paths.keywords.new.getHref()} leftSection={<IconPlus size={16} />}>
      New keyword
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Keywords"
        description="Words people text to your numbers: Herald replies, adds them to groups, or calls your webhooks."
        actions={
          // The tester really receives a message (POST /inbound-messages/), so it needs the editor role too.
          canEdit && (
            <>
              <Button component={Link} to={paths.inboundMessages.keywordTester.getHref()} variant="default" leftSection={<IconFlask size={16} />}>
                Test a keyword
              </Button>
              {newKeywordButton}
            </>
          )
        }
      />
      <RoleNotice needs="edit" />
      {keywords.isPending ? (
        <TableSkeleton columns={KEYWORD_COLUMNS} />
      ) : keywords.isError ? (
        <ErrorState title="The keywords could not be loaded." error={keywords.error} onRetry={() => void keywords.refetch()} />
      ) : keywords.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconMessage2 />}
          title="No keywords yet"
          description={canEdit ? 'Add a keyword to answer people who text it.' : 'Keywords your team adds show here.'}
          action={newKeywordButton || undefined}
        />
      ) : (
        <>
          <KeywordsTable keywords={keywords.data.data} groupNames={groupNames} webhookNames={webhookNames} onDelete={canEdit ? confirmDeletion : undefined} />
          <PaginationBar
            meta={keywords.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'keyword', other: 'keywords' }}
          />
        </>
      )}
    </>
  );
}
