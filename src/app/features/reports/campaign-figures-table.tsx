import { Anchor, Checkbox, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { CampaignReportListItem } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { formatCount, formatRate } from './report-format';

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
  const picked = (campaign: CampaignReportListItem) => chosen.includes(campaign.campaign_uuid);
  const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;
  const columns: DataColumn<CampaignReportListItem>[] = [
    {
      key: 'Compare',
      header: 'Compare',
      headerProps: NO_WRAP,
      cell: (campaign) => (
        <Checkbox
          aria-label={`Compare ${campaign.name}`}
          checked={picked(campaign)}
          disabled={full && !picked(campaign)}
          onChange={() => onToggle(campaign.campaign_uuid)}
        />
      ),
    },
    {
      key: 'Campaign',
      header: 'Campaign',
      headerProps: NO_WRAP,
      cell: (campaign) => (
        <>
          <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.campaign_uuid, { report: 'delivery' })} fw={500}>
            {campaign.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {campaign.status === 1 ? 'Sending' : `From ${campaign.sender}`}
          </Text>
        </>
      ),
    },
    { key: 'Started', header: 'Started', headerProps: NO_WRAP, cellProps: NO_WRAP, cell: (campaign) => formatTimestamp(campaign.started_sending_at) },
    { key: 'Sent', header: 'Sent', align: 'right', headerProps: NO_WRAP, cell: (campaign) => formatCount(campaign.sent) },
    {
      key: 'Delivered',
      header: 'Delivered',
      align: 'right',
      headerProps: NO_WRAP,
      cellProps: (campaign) => ({ title: `${formatCount(campaign.delivered)} of ${formatCount(campaign.sent)} sent` }),
      cell: (campaign) => formatRate(campaign.delivery_rate),
    },
    {
      key: 'Click rate',
      header: 'Click rate',
      align: 'right',
      headerProps: NO_WRAP,
      cellProps: (campaign) => ({ title: `${formatCount(campaign.unique_human_clickers)} people clicked` }),
      cell: (campaign) => formatRate(campaign.click_rate),
    },
    {
      key: 'Opt-out rate',
      header: 'Opt-out rate',
      align: 'right',
      headerProps: NO_WRAP,
      cellProps: (campaign) => ({ title: `${formatCount(campaign.opt_outs)} opt-outs` }),
      cell: (campaign) => formatRate(campaign.opt_out_rate),
    },
  ];
  return (
    <DataTable
      label="Campaign figures"
      columns={columns}
      rows={campaigns}
      rowKey={(campaign) => campaign.campaign_uuid}
      rowProps={(campaign) => ({ bg: picked(campaign) ? 'var(--mantine-primary-color-light)' : undefined })}
      tableProps={{ highlightOnHover: true }}
      busy={busy}
      minWidth={720}
    />
  );
}
