/**
 * Each message's connection and provider error in the dashboard (issue 34, point 5): the delivery
 * reports' tables and the contact page's message history gain "Connection" and "Provider error"
 * when one of the team's SMS connections carried a message on the page, and stay as they were
 * otherwise; the Overview says how many messages failed over, for a team with connections.
 *
 * Seen red: with `anyCarried` always true, the "as before" tables gained the two columns; with
 * `providerErrorOf` not leaving out Herald's own reasons, the contact page's `Expired` message showed
 * it as a provider error too; with the figure's `more` line not rendered, the failovers line was missing.
 */
import { describe, expect, it } from 'vitest';
import type { ContactDetail } from '../api/gen/types.gen';
import { ContactMessagesTable } from '../features/contacts-directory/contact-activity';
import { OverviewFigures } from '../features/overview/overview-figures';
import { emptyTotals } from '../features/overview/overview-fixtures';
import { altDeliveryRow, deliveryRow } from '../features/reports/report-fixtures';
import { ReportTable } from '../features/reports/report-table';
import { render, screen, within } from '../testing/render';

const TWILIO = { uuid: '7b0c0c0c-0000-4000-8000-000000000001', name: 'Twilio UK', provider: 'twilio' };
const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent);
const rowOf = (table: HTMLElement, text: string) => within(table).getByText(text).closest('tr')!;

describe('the delivery report tables', () => {
  it('show the connection, the provider’s id and its error for messages a connection carried', () => {
    const rows = [
      { ...deliveryRow(1), connection: TWILIO, provider_message_id: 'SM0123456789abcdef0123456789abcdef' },
      { ...deliveryRow(4), Status: 'Failed', failure_reason: '21610', connection: TWILIO, provider_message_id: null },
      { ...deliveryRow(5), connection: null, provider_message_id: '0A0000001234ABCD' },
      { ...deliveryRow(6), Status: 'Expired', failure_reason: 'Expired', connection: TWILIO, provider_message_id: 'SMabc' },
      deliveryRow(7),
    ];
    render(<ReportTable type="delivery" rows={rows} />);
    const table = screen.getByRole('table', { name: 'Delivery report' });
    expect(headers(table)).toEqual([
      'Recipient',
      'Status',
      'Sent at',
      'Delivered at',
      'Failure reason',
      'Message',
      'Connection',
      'Provider error',
      'Message ID',
    ]);
    const delivered = rowOf(table, '447700900001');
    expect(within(delivered).getByText('Twilio UK')).toBeInTheDocument();
    expect(within(delivered).getByText('(Twilio)')).toBeInTheDocument();
    expect(within(delivered).getByText('SM0123456789abcdef0123456789abcdef')).toHaveAttribute('title', 'SM0123456789abcdef0123456789abcdef');
    const refused = rowOf(table, '447700900004');
    // The provider's code under Failure reason and again as the provider's error.
    expect(within(refused).getAllByText('21610')).toHaveLength(2);
    expect(within(rowOf(table, '447700900005')).getByText('Deleted connection')).toBeInTheDocument();
    // Herald's own reason is not a provider's error.
    const expired = rowOf(table, '447700900006');
    expect(within(expired).queryAllByText('Expired', { selector: 'p' })).toHaveLength(0);
    expect(within(rowOf(table, '447700900007')).getAllByText('—').length).toBeGreaterThanOrEqual(2);
  });

  it('stay as they were when no message on the page went through a connection', () => {
    render(<ReportTable type="alt_delivery" rows={[altDeliveryRow(1), altDeliveryRow(2)]} />);
    const table = screen.getByRole('table', { name: 'Delivery with fields report' });
    expect(headers(table)).not.toContain('Connection');
    expect(headers(table)).not.toContain('Provider error');
  });
});

describe('the contact page’s message history', () => {
  const message = (overrides: Partial<ContactDetail['messages']['items'][number]>): ContactDetail['messages']['items'][number] => ({
    campaign: { uuid: '6a1b2c3d-0000-4000-8000-0000000007e1', name: 'Spring sale' },
    status: 'delivered',
    reason: null,
    sent_at: '2026-11-02 09:30:00',
    delivered_at: '2026-11-02 09:31:10',
    ...overrides,
  });

  it('names the connection and the provider’s error', () => {
    render(
      <ContactMessagesTable
        messages={[
          message({ connection: TWILIO, provider_message_id: 'SMfeed' }),
          message({
            campaign: { uuid: '6a1b2c3d-0000-4000-8000-0000000007e2', name: 'Autumn' },
            status: 'failed',
            reason: '21610',
            connection: TWILIO,
            provider_message_id: null,
          }),
          message({
            campaign: { uuid: '6a1b2c3d-0000-4000-8000-0000000007e3', name: 'Winter' },
            status: 'failed',
            reason: 'Expired',
            connection: TWILIO,
            provider_message_id: 'SMbeef',
          }),
        ]}
      />,
    );
    const table = screen.getByRole('table', { name: 'Messages received' });
    expect(headers(table)).toEqual(['Campaign', 'Status', 'Sent', 'Delivered', 'Connection', 'Provider error']);
    expect(within(rowOf(table, 'Spring sale')).getByText('SMfeed')).toBeInTheDocument();
    // Under the status badge, and as the provider's error.
    expect(within(rowOf(table, 'Autumn')).getAllByText('21610')).toHaveLength(2);
    // Herald's own reason (no receipt before the expiry) only under the badge: it is no provider's error.
    expect(within(rowOf(table, 'Winter')).getAllByText('Expired')).toHaveLength(1);
  });

  it('stays as it was for messages through the installation’s gateway', () => {
    render(<ContactMessagesTable messages={[message({})]} />);
    expect(headers(screen.getByRole('table', { name: 'Messages received' }))).toEqual(['Campaign', 'Status', 'Sent', 'Delivered']);
  });
});

describe('the Overview’s figures', () => {
  it('say how many messages failed over, for a team with connections', () => {
    render(<OverviewFigures totals={emptyTotals({ sent: 1200, failovers: 37 })} teamSettingsHref="/team" />);
    const tile = screen.getByText('Messages sent', { selector: 'dt' }).parentElement!;
    expect(tile).toHaveTextContent('Messages sent1,200handed to the carrier37 failed over to another connection');
  });

  it('say nothing of failovers for a team without', () => {
    render(<OverviewFigures totals={emptyTotals({ sent: 1200 })} teamSettingsHref="/team" />);
    expect(screen.queryByText(/failed over/)).not.toBeInTheDocument();
  });
});
