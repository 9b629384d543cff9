import { Anchor, Group, Text } from '@mantine/core';
import { IconGauge, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Campaign } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { CampaignBadges } from './campaign-badges';

export const CAMPAIGN_COLUMNS = ['Name', 'Status', 'Scheduled', 'Recipients', 'Sender', 'Actions'] as const;

interface CampaignsTableProps {
  campaigns: readonly Campaign[];
  /** Contact group names by uuid. */
  groupNames: ReadonlyMap<string, string>;
  /** Absent when the role may not delete: the actions column goes. */
  onDelete?: (campaign: Campaign) => void;
}

function Recipients({ campaign, groupNames }: { campaign: Campaign; groupNames: ReadonlyMap<string, string> }) {
  if (campaign.is_test) return <Text size="sm">One test number</Text>;
  const names = (uuids: readonly string[]) => uuids.map((uuid) => groupNames.get(uuid) ?? 'a deleted group').join(', ');
  return (
    <div>
      <Text size="sm">{names(campaign.included_contact_groups)}</Text>
      {campaign.excluded_contact_groups.length > 0 && (
        <Text size="xs" c="dimmed">
          except {names(campaign.excluded_contact_groups)}
        </Text>
      )}
    </div>
  );
}

export function CampaignsTable({ campaigns, groupNames, onDelete }: CampaignsTableProps) {
  const columns: DataColumn<Campaign>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (campaign) => (
        <>
          <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.uuid)} size="sm" fw={500}>
            {campaign.name}
          </Anchor>
          {campaign.throttled && (
            <Group gap={4} c="dimmed">
              <IconGauge size={12} aria-hidden />
              <Text size="xs">Throttled until {formatTimestamp(campaign.scheduled_finish_date)}</Text>
            </Group>
          )}
        </>
      ),
    },
    { key: 'status', header: 'Status', cell: (campaign) => <CampaignBadges campaign={campaign} /> },
    { key: 'scheduled', header: 'Scheduled', cell: (campaign) => <Text size="sm">{formatTimestamp(campaign.scheduled_send_date)}</Text> },
    { key: 'recipients', header: 'Recipients', cell: (campaign) => <Recipients campaign={campaign} groupNames={groupNames} /> },
    { key: 'sender', header: 'Sender', cell: (campaign) => campaign.sender },
  ];
  const actions: RowAction<Campaign>[] = onDelete
    ? [{ label: 'Delete', name: (campaign) => `Delete ${campaign.name}`, icon: <IconTrash size={18} />, color: 'red', onClick: onDelete }]
    : [];
  return (
    <DataTable
      label="Campaigns"
      columns={columns}
      rows={campaigns}
      rowKey={(campaign) => campaign.uuid}
      actions={actions}
      tableProps={{ verticalSpacing: 'sm' }}
      minWidth={820}
    />
  );
}
