import { Button } from '@mantine/core';
import { IconFilter, IconPlus } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, type LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { segmentQueries } from '../../features/segments/segment-queries';
import { SEGMENT_COLUMNS, SegmentsTable } from '../../features/segments/segments-table';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(segmentQueries.list({ page, per_page: perPage }));
}

export default function SegmentsListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const segments = useQuery(segmentQueries.list({ page, per_page: perPage }));
  const canEdit = useTeamRole().can('edit');

  const newSegmentButton = canEdit && (
    <Button component={Link} to={paths.segments.new.getHref()} leftSection={<IconPlus size={16} />}>
      New segment
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Segments"
        description="Contacts picked by their fields, groups, country and what they did (received, clicked, replied, bought), counted again whenever they are read. Send a campaign to a segment, or leave one out."
        actions={newSegmentButton}
      />
      <RoleNotice needs="edit" />
      {segments.isPending ? (
        <TableSkeleton columns={SEGMENT_COLUMNS} />
      ) : segments.isError ? (
        <ErrorState title="The segments could not be loaded." error={segments.error} onRetry={() => void segments.refetch()} />
      ) : segments.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconFilter />}
          title="No segments yet"
          description={
            canEdit
              ? 'Build one from conditions such as “clicked a link in the last 7 days” or “birthday within the next 14 days”, and watch the count as you go.'
              : 'Segments your team builds show here.'
          }
          action={newSegmentButton || undefined}
        />
      ) : (
        <>
          <SegmentsTable segments={segments.data.data} busy={segments.isPlaceholderData} />
          <PaginationBar
            meta={segments.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'segment', other: 'segments' }}
          />
        </>
      )}
    </>
  );
}
