/**
 * The “E-mail me this report” button.
 *
 * Issue 32, seen red: with the mutation sending no query (as before), the request for the filtered
 * report carried no filters, and the whole report was e-mailed.
 */
import { describe, expect, it } from 'vitest';
import { json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, waitFor } from '../../testing/render';
import { EmailReportButton } from './email-report-button';
import { REPORT_CAMPAIGN_UUID } from './report-fixtures';

function serve(answer: () => Response | Promise<Response>) {
  signIn();
  return mockApi((request) => (request.method === 'POST' ? answer() : json({ data: [], links: {}, meta: {} })));
}

describe('the “E-mail me this report” button', () => {
  it('asks for the report once, is disabled while asking, and says where the link goes', async () => {
    let answer = (_response: Response) => {};
    const fetchMock = serve(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { user } = render(<EmailReportButton campaignUuid={REPORT_CAMPAIGN_UUID} type="alt_delivery" email="ada@herald.test" />);

    const button = screen.getByRole('button', { name: 'E-mail me this report' });
    await user.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    await user.click(button);
    const posts = fetchMock.mock.calls.map(([request]) => request).filter((request) => request.method === 'POST');
    expect(posts.map((request) => new URL(request.url).pathname)).toEqual([`/api/2.0/reporting/${REPORT_CAMPAIGN_UUID}/alt_delivery`]);

    answer(new Response(null, { status: 202 }));
    expect(await screen.findByText('The Delivery with fields report is on its way to ada@herald.test: a download link arrives shortly.')).toBeInTheDocument();
    expect(button).toBeEnabled();
  });

  it('asks for the rows the filters on screen show, and names the filters', async () => {
    const fetchMock = serve(() => new Response(null, { status: 202 }));
    const { user } = render(
      <EmailReportButton campaignUuid={REPORT_CAMPAIGN_UUID} type="delivery" filters={{ status: 'Failed', search: '7700' }} email="ada@herald.test" />,
    );

    const button = screen.getByRole('button', { name: 'E-mail me these rows' });
    expect(button).toHaveAccessibleDescription('Only the rows that match: Status Failed, number containing 7700');
    await user.click(button);
    expect(
      await screen.findByText('The Delivery report (Status Failed, number containing 7700) is on its way to ada@herald.test: a download link arrives shortly.'),
    ).toBeInTheDocument();
    const [post] = fetchMock.mock.calls.map(([request]) => new URL(request.url)).filter((url) => url.pathname.endsWith('/delivery'));
    expect(Object.fromEntries(post!.searchParams)).toEqual({ status: 'Failed', search: '7700' });
  });

  it('says why when the service refuses with 429, and how long to wait', async () => {
    serve(() => json({ error: { code: 429, http_code: 429, message: 'Too many report requests: at most 10 a minute.' } }, 429, { 'Retry-After': '42' }));
    const { user } = render(<EmailReportButton campaignUuid={REPORT_CAMPAIGN_UUID} type="clicks" email="ada@herald.test" />);

    await user.click(screen.getByRole('button', { name: 'E-mail me this report' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('The Clicks report could not be requested');
    expect(toast).toHaveTextContent('Too many report requests: at most 10 a minute. Try again in 42 seconds.');
    expect(screen.getByRole('button', { name: 'E-mail me this report' })).toBeEnabled();
  });
});
