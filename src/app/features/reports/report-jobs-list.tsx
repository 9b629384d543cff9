import { Anchor, Group, Pagination, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { reportFiltersInWords } from '../../../shared/contract';
import type { ReportJob } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { ErrorState } from '../../components/error-state';
import { paths } from '../../paths';
import { REPORT_DEFINITIONS } from './report-columns';
import { formatCount, formatReportTime } from './report-format';
import { ReportJobStatusBadge } from './report-job-status-badge';
import { reportJobQueries } from './report-queries';

export const JOBS_PER_PAGE = 5;

function Dimmed({ children }: { children: string }) {
  return (
    <Text span size="sm" c="dimmed">
      {children}
    </Text>
  );
}

function JobTime({ timestamp, timeZone }: { timestamp: string; timeZone?: string }) {
  if (!timestamp) return <Dimmed>—</Dimmed>;
  return (
    <time dateTime={timestamp} title={timeZone ? `${timestamp} (${timeZone})` : timestamp}>
      {formatReportTime(timestamp)}
    </time>
  );
}

function JobStatus({ job }: { job: ReportJob }) {
  if (!job.error || job.status === 'sent') return <ReportJobStatusBadge status={job.status} />;
  // The reason of a failure (or of a retry under way) is one focus away, for keyboards too.
  return (
    <Tooltip label={job.error} multiline w={320}>
      <span tabIndex={0} aria-label={`${job.status === 'failed' ? 'Failed' : 'Retrying'}: ${job.error}`}>
        <ReportJobStatusBadge status={job.status} />
      </span>
    </Tooltip>
  );
}

function JobDownload({ job }: { job: ReportJob }) {
  const { label } = REPORT_DEFINITIONS[job.type];
  if (job.download_url) {
    return (
      <Anchor href={job.download_url} download size="sm" aria-label={`Download CSV of the ${label} report of ${job.campaign_name}`}>
        <Group gap={4} wrap="nowrap">
          <IconDownload size={14} aria-hidden />
          Download CSV
        </Group>
      </Anchor>
    );
  }
  return <Dimmed>{job.status === 'sent' ? 'Link expired' : '—'}</Dimmed>;
}

const nowrap = { style: { whiteSpace: 'nowrap' } } as const;

function columns(timeZone: string | undefined): DataColumn<ReportJob>[] {
  return [
    {
      key: 'report',
      header: 'Report',
      cell: (job) => (
        <>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {REPORT_DEFINITIONS[job.type].label}
          </Text>
          {reportFiltersInWords(job.filters) && (
            <Text size="xs" c="dimmed">
              Only {reportFiltersInWords(job.filters)}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'campaign',
      header: 'Campaign',
      cellProps: { maw: 220 },
      cell: (job) => (
        <Anchor
          component={Link}
          to={paths.campaigns.detail.getHref(job.campaign_uuid, { report: job.type, ...job.filters })}
          size="sm"
          display="block"
          truncate="end"
        >
          {job.campaign_name}
        </Anchor>
      ),
    },
    { key: 'status', header: 'Status', cell: (job) => <JobStatus job={job} /> },
    { key: 'rows', header: 'Rows', align: 'right', cell: (job) => (job.row_count === null ? <Dimmed>—</Dimmed> : formatCount(job.row_count)) },
    { key: 'requested', header: 'Requested at', cellProps: nowrap, cell: (job) => <JobTime timestamp={job.created_at} timeZone={timeZone} /> },
    { key: 'expires', header: 'Link expires', cellProps: nowrap, cell: (job) => <JobTime timestamp={job.link_expires_at} timeZone={timeZone} /> },
    { key: 'download', header: 'Download', cellProps: nowrap, cell: (job) => <JobDownload job={job} /> },
  ];
}

interface ReportJobsListProps {
  /** Where the links are e-mailed: the signed-in user's address. */
  email: string | undefined;
  timeZone?: string;
}

/** The reports the user asked for by e-mail in this team, newest first; read again while one is under way. */
export function ReportJobsList({ email, timeZone }: ReportJobsListProps) {
  const [page, setPage] = useState(1);
  const jobs = useQuery(reportJobQueries.list({ page, per_page: JOBS_PER_PAGE }));

  return (
    <Stack gap="xs" component="section" aria-labelledby="report-jobs-title">
      <div>
        <Title order={3} size="h5" id="report-jobs-title">
          Your report e-mails
        </Title>
        <Text size="sm" c="dimmed">
          Reports you asked for in this team, newest first{email ? `; each link goes to ${email} and works for 7 days` : ''}.
        </Text>
      </div>
      {jobs.isPending ? (
        <DataTable label="Report e-mails" columns={columns(timeZone)} rows={undefined} rowKey={(job) => job.uuid} loading loadingRows={2} minWidth={760} />
      ) : jobs.isError ? (
        <ErrorState title="Your report e-mails could not be loaded." error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : jobs.data.meta.total === 0 ? (
        <Text size="sm" c="dimmed">
          You have not asked for a report by e-mail yet: “E-mail me this report” sends the report, as its filters show it, as a CSV link.
        </Text>
      ) : (
        <>
          <DataTable label="Report e-mails" columns={columns(timeZone)} rows={jobs.data.data} rowKey={(job) => job.uuid} minWidth={760} />
          {jobs.data.meta.last_page > 1 && (
            <Group justify="flex-end">
              <Pagination
                size="sm"
                total={jobs.data.meta.last_page}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({ 'aria-label': `${control} page of report e-mails` })}
                getItemProps={(item) => ({ 'aria-label': `Page ${item} of report e-mails` })}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
