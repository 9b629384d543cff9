import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ReportType } from '../../../shared/contract';
import type { OverviewImport, OverviewReportJob } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { formatCount, plural } from './overview-format';
import { EmptyNote, Item, ItemList, OverviewSection, SectionLink } from './overview-section';

const IMPORT_STATUS: Record<OverviewImport['status'], { color: string; label: string }> = {
  receiving: { color: 'blue', label: 'Reading file' },
  merging: { color: 'orange', label: 'Writing' },
  completed: { color: 'teal', label: 'Completed' },
  failed: { color: 'red', label: 'Failed' },
};

const JOB_STATUS: Record<OverviewReportJob['status'], { color: string; label: string }> = {
  queued: { color: 'gray', label: 'Queued' },
  writing: { color: 'blue', label: 'Writing CSV' },
  mailing: { color: 'indigo', label: 'Mailing' },
  sent: { color: 'teal', label: 'Sent' },
  failed: { color: 'red', label: 'Failed' },
};

/** The reports' names, as their tabs on a campaign's page name them. */
export const REPORT_LABELS: Record<ReportType, string> = {
  delivery: 'Delivery',
  alt_delivery: 'Alternative delivery',
  recipient: 'Recipients',
  sent: 'Sent',
  unsent: 'Unsent',
  clicks: 'Clicks',
};

function StatusBadge({ look }: { look: { color: string; label: string } }) {
  return (
    <Badge color={look.color} variant="light" style={{ flexShrink: 0 }}>
      {look.label}
    </Badge>
  );
}

function ItemHead({ to, name, look }: { to: string; name: string; look: { color: string; label: string } }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Anchor component={Link} to={to} fw={600} size="sm" truncate="end" miw={0}>
        {name}
      </Anchor>
      <StatusBadge look={look} />
    </Group>
  );
}

/** The team's latest contact imports, each under its group's name. */
export function RecentImports({ imports }: { imports: OverviewImport[] }) {
  return (
    <OverviewSection id="recent-imports" title="Recent imports" aside={<SectionLink to={paths.contactGroups.list.getHref()}>Contact groups</SectionLink>}>
      {imports.length === 0 ? (
        <EmptyNote>No contacts have been imported yet: open a contact group and import a CSV or Excel file into it.</EmptyNote>
      ) : (
        <ItemList label="Recent imports">
          {imports.map((row) => (
            <Item key={row.uuid}>
              <ItemHead to={paths.contactGroups.detail.getHref(row.contact_group_uuid)} name={row.contact_group_name} look={IMPORT_STATUS[row.status]} />
              <Text size="xs" c="dimmed">
                {plural(row.rows_total, 'row', 'rows')}
                {row.status === 'completed' ? `, ${formatCount(row.contacts_added)} added` : ''}
                {row.file_name ? ` · ${row.file_name}` : ''} · {formatTimestamp(row.created_at)}
              </Text>
            </Item>
          ))}
        </ItemList>
      )}
    </OverviewSection>
  );
}

/** The report e-mails the signed-in user asked for in this team, newest first. */
export function RecentReportJobs({ jobs }: { jobs: OverviewReportJob[] }) {
  return (
    <OverviewSection id="recent-report-jobs" title="Your report e-mails" aside={<SectionLink to={paths.reports.getHref()}>Reports</SectionLink>}>
      {jobs.length === 0 ? (
        <EmptyNote>
          You have not asked for a report by e-mail yet: on a sent campaign’s reports, “E-mail me this report” sends the report, as its filters show it, as a
          CSV link.
        </EmptyNote>
      ) : (
        <ItemList label="Your report e-mails">
          {jobs.map((job) => (
            <Item key={job.uuid}>
              <ItemHead to={paths.campaigns.detail.getHref(job.campaign_uuid, { report: job.type })} name={job.campaign_name} look={JOB_STATUS[job.status]} />
              <Text size="xs" c="dimmed">
                {REPORT_LABELS[job.type]} report · asked {formatTimestamp(job.created_at)}
              </Text>
            </Item>
          ))}
        </ItemList>
      )}
    </OverviewSection>
  );
}
