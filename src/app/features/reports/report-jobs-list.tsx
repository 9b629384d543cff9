import { Anchor, Group, Pagination, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { reportFiltersInWords } from '../../../shared/contract';
import type { ReportJob } from '../../api/gen/types.gen';
import { ErrorState } from '../../components/error-state';
import { TableSkeleton } from '../../components/table-skeleton';
import { paths } from '../../paths';
import { REPORT_DEFINITIONS } from './report-columns';
import { formatCount, formatReportTime } from './report-format';
import { ReportJobStatusBadge } from './report-job-status-badge';
import { reportJobQueries } from './report-queries';
import { TableScroll } from '../../components/table-scroll';

export const JOBS_PER_PAGE = 5;
const JOB_COLUMNS = ['Report', 'Campaign', 'Status', 'Rows', 'Requested at', 'Link expires', 'Download'] as const;

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
        <TableSkeleton columns={JOB_COLUMNS} rows={2} />
      ) : jobs.isError ? (
        <ErrorState title="Your report e-mails could not be loaded." error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : jobs.data.meta.total === 0 ? (
        <Text size="sm" c="dimmed">
          You have not asked for a report by e-mail yet: “E-mail me this report” sends the report, as its filters show it, as a CSV link.
        </Text>
      ) : (
        <>
          <Paper withBorder radius="md">
            <TableScroll minWidth={760}>
              <Table aria-label="Report e-mails">
                <Table.Thead>
                  <Table.Tr>
                    {JOB_COLUMNS.map((column) => (
                      <Table.Th key={column} ta={column === 'Rows' ? 'right' : undefined}>
                        {column}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {jobs.data.data.map((job) => (
                    <Table.Tr key={job.uuid}>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {REPORT_DEFINITIONS[job.type].label}
                        </Text>
                        {reportFiltersInWords(job.filters) && (
                          <Text size="xs" c="dimmed">
                            Only {reportFiltersInWords(job.filters)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td maw={220}>
                        <Anchor
                          component={Link}
                          to={paths.campaigns.detail.getHref(job.campaign_uuid, { report: job.type, ...job.filters })}
                          size="sm"
                          display="block"
                          truncate="end"
                        >
                          {job.campaign_name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <JobStatus job={job} />
                      </Table.Td>
                      <Table.Td ta="right">{job.row_count === null ? <Dimmed>—</Dimmed> : formatCount(job.row_count)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <JobTime timestamp={job.created_at} timeZone={timeZone} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <JobTime timestamp={job.link_expires_at} timeZone={timeZone} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <JobDownload job={job} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
          </Paper>
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
