import { ActionIcon, Anchor, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconGauge, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Campaign } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { CampaignBadges } from './campaign-badges';
import { TableScroll } from '../../components/table-scroll';

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
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={820}>
        <Table aria-label="Campaigns" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {CAMPAIGN_COLUMNS.filter((column) => onDelete || column !== 'Actions').map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {campaigns.map((campaign) => (
              <Table.Tr key={campaign.uuid}>
                <Table.Td>
                  <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.uuid)} size="sm" fw={500}>
                    {campaign.name}
                  </Anchor>
                  {campaign.throttled && (
                    <Group gap={4} c="dimmed">
                      <IconGauge size={12} aria-hidden />
                      <Text size="xs">Throttled until {formatTimestamp(campaign.scheduled_finish_date)}</Text>
                    </Group>
                  )}
                </Table.Td>
                <Table.Td>
                  <CampaignBadges campaign={campaign} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTimestamp(campaign.scheduled_send_date)}</Text>
                </Table.Td>
                <Table.Td>
                  <Recipients campaign={campaign} groupNames={groupNames} />
                </Table.Td>
                <Table.Td>{campaign.sender}</Table.Td>
                {onDelete && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${campaign.name}`} onClick={() => onDelete(campaign)}>
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
