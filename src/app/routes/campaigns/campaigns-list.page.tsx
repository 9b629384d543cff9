import { Button, Group, SegmentedControl } from '@mantine/core';
import { IconPlus, IconSend } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { CAMPAIGN_STATUSES, campaignQueries, type CampaignStatus } from '../../features/campaigns/campaign-queries';
import { CAMPAIGN_COLUMNS, CampaignsTable } from '../../features/campaigns/campaigns-table';
import { useConfirmCampaignDeletion } from '../../features/campaigns/use-confirm-campaign-deletion';
import { parsePageParams, usePageParams, useSetFilterParam } from '../../lib/use-page-params';
import { paths } from '../../paths';

const ALL = 'all';

/** `?status=` 0, 1 or 2; anything else shows every campaign. */
function parseStatus(search: URLSearchParams): CampaignStatus | undefined {
  return CAMPAIGN_STATUSES.find((status) => String(status.value) === search.get('status'))?.value;
}

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const { page, perPage } = parsePageParams(search);
  void queryClient.prefetchQuery(campaignQueries.list({ page, per_page: perPage, status: parseStatus(search) }));
  void queryClient.prefetchQuery(contactGroupQueries.picker());
}

export default function CampaignsListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const [searchParams] = useSearchParams();
  const status = parseStatus(searchParams);
  const campaigns = useQuery(campaignQueries.list({ page, per_page: perPage, status }));
  const groups = useQuery(contactGroupQueries.picker());
  const groupNames = new Map((groups.data ?? []).map((group) => [group.uuid, group.name]));
  const confirmDeletion = useConfirmCampaignDeletion();
  const canEdit = useTeamRole().can('edit');

  const setStatusParam = useSetFilterParam('status');
  const setStatus = (value: string) => setStatusParam(value === ALL ? undefined : value);

  const newCampaignButton = canEdit && (
    <Button component={Link} to={paths.campaigns.new.getHref()} leftSection={<IconPlus size={16} />}>
      New campaign
    </Button>
  );
  const statusLabel = CAMPAIGN_STATUSES.find((candidate) => candidate.value === status)?.label.toLowerCase();

  return (
    <>
      <PageHeader title="Campaigns" description="Messages sent to your contact groups, at a time you choose." actions={newCampaignButton} />
      <RoleNotice needs="edit" />
      <Group mb="md">
        <SegmentedControl
          aria-label="Filter by status"
          value={status === undefined ? ALL : String(status)}
          onChange={setStatus}
          data={[{ value: ALL, label: 'All' }, ...CAMPAIGN_STATUSES.map(({ value, label }) => ({ value: String(value), label }))]}
        />
      </Group>
      {campaigns.isPending ? (
        <TableSkeleton columns={CAMPAIGN_COLUMNS} />
      ) : campaigns.isError ? (
        <ErrorState title="The campaigns could not be loaded." error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : campaigns.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconSend />}
          title={statusLabel ? `No ${statusLabel} campaigns` : 'No campaigns yet'}
          description={
            statusLabel
              ? 'Campaigns in that state show here.'
              : canEdit
                ? 'Create a campaign to send a template to your contact groups.'
                : 'Campaigns your team creates show here.'
          }
          action={statusLabel ? undefined : newCampaignButton || undefined}
        />
      ) : (
        <>
          <CampaignsTable campaigns={campaigns.data.data} groupNames={groupNames} onDelete={canEdit ? confirmDeletion : undefined} />
          <PaginationBar
            meta={campaigns.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'campaign', other: 'campaigns' }}
          />
        </>
      )}
    </>
  );
}
