/**
 * Conversions in the dashboard (issue 35, point 3): the team's attribution windows are saved on
 * their own (only their two fields are sent, a 422 shown on its field); an admin connects a shop in
 * a dialog and sees its webhook URL with a copy button, the secret only as its hint; a campaign's
 * Revenue card shows orders, revenue and revenue per recipient in the team's currency and the other
 * currencies apart, and nothing while the summary has no revenue; with segments, a line per segment
 * (issue 35: revenue per segment).
 *
 * Seen red: with the revenue card's guard (`revenue === undefined`) removed, the card showed for a
 * team without conversions; with the 422's field names missing from the attribution form, the
 * message reached only the toast; with the card's segment lines left out, the segment table was missing.
 */
import { describe, expect, it } from 'vitest';
import type { CampaignSummary, ShopConnection, TeamSettings } from '../../api/gen/types.gen';
import { ApiError } from '../../api/api-error';
import { RevenueCard } from '../../features/campaigns/revenue-card';
import { AttributionWindowsForm } from '../../features/team/attribution-windows-form';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { NEW_TEAM_SETTINGS } from '../../testing/team-settings';
import { ShopConnectionsSection } from '../../features/shop-connections/shop-connections-section';

const SLOW = { timeout: 20_000 };

const GOLD = '0b6c5a1e-0000-4000-8000-000000000001';
const VIP = '0b6c5a1e-0000-4000-8000-000000000002';

const COUNTS: CampaignSummary = {
  recipients: 4,
  queued: 0,
  submitted: 0,
  delivered: 4,
  failed: 0,
  unsent: 0,
  clicks: 1,
  human_clicks: 1,
  bot_clicks: 0,
  in_doubt: 0,
  opt_outs: 0,
  held_for_quiet_hours: 0,
};

describe('the revenue card', () => {
  it('shows the credited orders in the team’s currency and the others apart', () => {
    render(
      <RevenueCard
        summary={{
          ...COUNTS,
          currency: 'EUR',
          orders: 2,
          revenue: 50.1,
          revenue_per_recipient: 12.525,
          revenue_other: [{ currency: 'GBP', value: 15.5, orders: 1 }],
        }}
      />,
    );
    const card = screen.getByRole('region', { name: 'Revenue' });
    expect(within(card).getByText('Orders').nextElementSibling).toHaveTextContent('2');
    expect(within(card).getByText('Per recipient').nextElementSibling).toHaveTextContent('€12.53');
    expect(card).toHaveTextContent('€50.10');
    expect(card).toHaveTextContent('In other currencies, not converted: £15.50 (1 order).');
  });

  it('shows the figures per included segment when the campaign sent to segments', () => {
    render(
      <RevenueCard
        summary={{
          ...COUNTS,
          currency: 'GBP',
          orders: 4,
          revenue: 135,
          revenue_per_recipient: 27,
          revenue_other: [{ currency: 'EUR', value: 7.5, orders: 1 }],
          segments: [
            { segment_uuid: GOLD, name: 'Gold', recipients: 3, orders: 3, revenue: 35, revenue_per_recipient: 11.6667, revenue_other: [] },
            {
              segment_uuid: VIP,
              name: 'VIP',
              recipients: 2,
              orders: 1,
              revenue: 20,
              revenue_per_recipient: 10,
              revenue_other: [{ currency: 'EUR', value: 7.5, orders: 1 }],
            },
          ],
        }}
      />,
    );
    const table = within(screen.getByRole('region', { name: 'Revenue' })).getByRole('table', { name: 'Revenue by segment' });
    const cells = (name: string) =>
      within(within(table).getByRole('row', { name: new RegExp(name) }))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Gold')).toEqual(['3', '3', '£35.00', '£11.67']);
    expect(cells('VIP')).toEqual(['2', '1', '£20.00and €7.50 (1 order)', '£10.00']);
    expect(within(table).getByRole('link', { name: 'Gold' })).toHaveAttribute('href', `/segments/${GOLD}`);
  });

  it('shows no segment lines for a campaign without segments', () => {
    render(<RevenueCard summary={{ ...COUNTS, currency: 'GBP', orders: 0, revenue: 0, revenue_per_recipient: 0, revenue_other: [] }} />);
    expect(screen.getByRole('region', { name: 'Revenue' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Revenue by segment' })).toBeNull();
  });

  it('is absent while the team has recorded no conversion', () => {
    render(<RevenueCard summary={COUNTS} />);
    expect(screen.queryByRole('region', { name: 'Revenue' })).toBeNull();
  });
});

describe('the attribution windows', SLOW, () => {
  it('sends only the two windows, and shows a 422 on its field', async () => {
    const sent: unknown[] = [];
    let refuse = false;
    const save = async (input: Partial<TeamSettings>) => {
      sent.push(input);
      if (refuse) {
        throw new ApiError(422, 'The given data was invalid.', { view_window_hours: ['The view window hours may not be greater than 720.'] });
      }
      return { ...NEW_TEAM_SETTINGS, ...input } as TeamSettings;
    };
    const { user } = render(<AttributionWindowsForm settings={NEW_TEAM_SETTINGS} onSubmit={save} />);
    const form = screen.getByRole('form', { name: 'Revenue attribution' });
    const click = within(form).getByRole('textbox', { name: /Click window/ });
    await user.clear(click);
    await user.type(click, '7');
    await user.click(within(form).getByRole('button', { name: 'Save attribution windows' }));
    expect(sent).toEqual([{ click_window_days: 7, view_window_hours: 24 }]);
    refuse = true;
    const view = within(form).getByRole('textbox', { name: /View window/ });
    await user.clear(view);
    await user.type(view, '0');
    await user.click(within(form).getByRole('button', { name: 'Save attribution windows' }));
    expect(await within(form).findByText('The view window hours may not be greater than 720.')).toBeInTheDocument();
  });
});

describe('shop connections', SLOW, () => {
  it('connects a shop and shows its webhook URL, with a copy button, and only the secret’s hint', async () => {
    signIn();
    const connections: ShopConnection[] = [];
    const posted: unknown[] = [];
    mockApi(async (request, url) => {
      const path = url.pathname.replace('/api/2.0', '');
      if (path !== '/shop-connections' && path !== '/shop-connections/') return apiError(404, `Not mocked: ${request.method} ${path}`);
      if (request.method === 'GET') return json({ data: connections, meta: { current_page: 1, per_page: 100, total: connections.length, last_page: 1 } });
      const body = (await request.json()) as { name: string; platform: 'shopify' | 'woocommerce'; secret: string };
      posted.push(body);
      const created: ShopConnection = {
        uuid: '0b7a9c52-8d0e-4d7a-9a55-3c2f1f0e6a11',
        name: body.name,
        platform: body.platform,
        secret: '********0f00',
        webhook_url: 'https://herald.example.com/hooks/shop/0b7a9c52-8d0e-4d7a-9a55-3c2f1f0e6a11',
        last_order_at: '',
        links: [],
        created_at: '2026-06-01 10:00:00',
        updated_at: '2026-06-01 10:00:00',
      };
      connections.push(created);
      return json({ data: created }, 201);
    });
    const { user } = render(<ShopConnectionsSection />, { role: 'admin' });
    expect(await screen.findByText('No shop connected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect a shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a shop' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Acme store');
    await user.click(within(dialog).getByRole('radio', { name: 'WooCommerce' }));
    await user.type(within(dialog).getByLabelText(/Webhook secret/), 'shh-its-a-secret-0f00');
    await user.click(within(dialog).getByRole('button', { name: 'Connect shop' }));
    expect(posted).toEqual([{ name: 'Acme store', platform: 'woocommerce', secret: 'shh-its-a-secret-0f00' }]);
    const table = await screen.findByRole('table', { name: 'Shop connections' });
    expect(within(table).getByText('https://herald.example.com/hooks/shop/0b7a9c52-8d0e-4d7a-9a55-3c2f1f0e6a11')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Copy the webhook URL of Acme store' })).toBeInTheDocument();
    expect(within(table).getByText('********0f00')).toBeInTheDocument();
    expect(table).not.toHaveTextContent('shh-its-a-secret');
  });
});
