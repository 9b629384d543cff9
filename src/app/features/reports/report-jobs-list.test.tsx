import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportJob } from '../../api/gen/types.gen';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { reportJob } from './report-fixtures';
import { REPORT_JOB_POLL_MS } from './report-queries';
import { ReportJobsList } from './report-jobs-list';

function serveJobs(jobs: () => ReportJob[]) {
  signIn();
  return mockApi((_request, url) => (url.pathname === '/api/2.0/report-jobs' ? json(page(jobs(), { per_page: 5 })) : json({}, 404)));
}

const jobReads = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([request]) => new URL(request.url).pathname === '/api/2.0/report-jobs').length;

describe('the report e-mails list', () => {
  afterEach(() => void vi.useRealTimers());

  it('shows each job’s report, status, rows, times and its download link', async () => {
    serveJobs(() => [
      reportJob(),
      reportJob({ uuid: 'f2', type: 'clicks', status: 'failed', row_count: null, download_url: null, link_expires_at: '', error: 'The mail server refused.' }),
    ]);
    render(<ReportJobsList email="ada@herald.test" timeZone="Europe/London" />);

    const table = await screen.findByRole('table', { name: 'Report e-mails' });
    const [, sent, failed] = within(table).getAllByRole('row');
    expect(sent).toHaveTextContent('Delivery');
    expect(within(sent!).getByText('Sent')).toBeInTheDocument();
    expect(within(sent!).getByRole('cell', { name: '1,234' })).toBeInTheDocument();
    expect(within(sent!).getByText('2 Mar 2026, 10:00:00')).toHaveAttribute('title', '2026-03-02 10:00:00 (Europe/London)');
    expect(within(sent!).getByText('9 Mar 2026, 10:00:00')).toBeInTheDocument();
    expect(within(sent!).getByRole('link', { name: 'Download CSV of the Delivery report of Spring sale' })).toHaveAttribute('href', reportJob().download_url);
    expect(within(sent!).getByRole('link', { name: 'Spring sale' })).toHaveAttribute('href', `/campaigns/${reportJob().campaign_uuid}?report=delivery`);
    expect(within(failed!).getByLabelText('Failed: The mail server refused.')).toBeInTheDocument();
    expect(within(failed!).queryByRole('link', { name: /Download/ })).not.toBeInTheDocument();
    expect(screen.getByText(/each link goes to ada@herald.test/)).toBeInTheDocument();
  });

  it('reads itself again while a job is under way, and stops once it is sent', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let current = reportJob({ status: 'queued', row_count: null, download_url: null, link_expires_at: '' });
    const fetchMock = serveJobs(() => [current]);
    render(<ReportJobsList email="ada@herald.test" />);

    expect(await screen.findByText('Queued')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Download/ })).not.toBeInTheDocument();

    current = reportJob({ status: 'writing', row_count: null, download_url: null, link_expires_at: '' });
    await vi.advanceTimersByTimeAsync(REPORT_JOB_POLL_MS);
    expect(await screen.findByText('Writing CSV')).toBeInTheDocument();

    current = reportJob();
    await vi.advanceTimersByTimeAsync(REPORT_JOB_POLL_MS);
    expect(await screen.findByRole('link', { name: /Download CSV/ })).toBeInTheDocument();
    expect(screen.getByText('Sent')).toBeInTheDocument();

    const reads = jobReads(fetchMock);
    await vi.advanceTimersByTimeAsync(REPORT_JOB_POLL_MS * 10);
    expect(jobReads(fetchMock)).toBe(reads);
  });

  it('says when no report was asked for yet', async () => {
    serveJobs(() => []);
    render(<ReportJobsList email="ada@herald.test" />);
    expect(await screen.findByText(/You have not asked for a report by e-mail yet/)).toBeInTheDocument();
  });
});
