import { Anchor, Checkbox, Paper, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { CampaignReportListItem } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { formatCount, formatRate } from './report-format';
import { TableScroll } from '../../components/table-scroll';

/** The headers of the Reports page's campaigns table (its skeleton's too). */
export const CAMPAIGN_FIGURES_COLUMNS = ['Compare', 'Campaign', 'Started', 'Sent', 'Delivered', 'Click rate', 'Opt-out rate'];

/** How many campaigns the comparison sets side by side. */
export const COMPARED = 2;

interface CampaignFiguresTableProps {
  campaigns: readonly CampaignReportListItem[];
  /** The uuids chosen for the comparison, in the order they were chosen. */
  chosen: readonly string[];
  onToggle: (uuid: string) => void;
  /** The next page is loading: the rows on screen are the previous page's. */
  busy?: boolean;
}

/**
 * The team's campaigns with their key figures side by side — sent, delivered, click and opt-out
 * rates — each leading to its reports, and a box to choose it for the comparison (two at most).
 */
export function CampaignFiguresTable({ campaigns, chosen, onToggle, busy = false }: CampaignFiguresTableProps) {
  const full = chosen.length >= COMPARED;
  return (
    <Paper withBorder radius="md" style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}>
      <TableScroll minWidth={720}>
        <Table aria-label="Campaign figures" aria-busy={busy} highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {CAMPAIGN_FIGURES_COLUMNS.map((header, index) => (
                <Table.Th key={header} ta={index >= 3 ? 'right' : undefined} style={{ whiteSpace: 'nowrap' }}>
                  {header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {campaigns.map((campaign) => {
              const picked = chosen.includes(campaign.campaign_uuid);
              return (
                <Table.Tr key={campaign.campaign_uuid} bg={picked ? 'var(--mantine-primary-color-light)' : undefined}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Compare ${campaign.name}`}
                      checked={picked}
                      disabled={full && !picked}
                      onChange={() => onToggle(campaign.campaign_uuid)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.campaign_uuid, { report: 'delivery' })} fw={500}>
                      {campaign.name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {campaign.status === 1 ? 'Sending' : `From ${campaign.sender}`}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(campaign.started_sending_at)}</Table.Td>
                  <Table.Td ta="right">{formatCount(campaign.sent)}</Table.Td>
                  <Table.Td ta="right" title={`${formatCount(campaign.delivered)} of ${formatCount(campaign.sent)} sent`}>
                    {formatRate(campaign.delivery_rate)}
                  </Table.Td>
                  <Table.Td ta="right" title={`${formatCount(campaign.unique_human_clickers)} people clicked`}>
                    {formatRate(campaign.click_rate)}
                  </Table.Td>
                  <Table.Td ta="right" title={`${formatCount(campaign.opt_outs)} opt-outs`}>
                    {formatRate(campaign.opt_out_rate)}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
