/**
 * The inbox page (issue 36, point 1, in the dashboard), at phone width (jsdom matches no media
 * query): the list with its unread badges and filters, then one conversation with a link back, its
 * messages newest last, the contact beside it, and the composer with its count, a saved reply and
 * Send; an opted-out number's composer says why it is disabled; a viewer sees no composer and no
 * actions.
 *
 * Seen red: with the `optedOut` branch of reply-composer.tsx removed (a Send button, no notice), with
 * `canReply` always true in inbox.page.tsx (the viewer got the composer and the Close button), and
 * with the filters' `unread` left out of listParamsOf (the request carried no unread=true).
 */
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, ConversationMessage } from '../../api/gen/types.gen';
import type { Role } from '../../lib/roles';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import InboxPage from './inbox.page';

const ADA = '447700900100';
const ME = { uuid: '11111111-1111-4111-8111-111111111111', name: 'Grace Hopper', email: 'grace@example.com' };

function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    phone_number: ADA,
    name: 'Ada Lovelace',
    status: 'open',
    assignee: null,
    snoozed_until: '',
    unread: true,
    opted_out: false,
    last_activity_at: '2026-11-03 09:05:00',
    last_message: { direction: 'inbound', body: 'Do you ship to Ireland?', created_at: '2026-11-03 09:05:00' },
    ...overrides,
  };
}

const MESSAGES: ConversationMessage[] = [
  {
    direction: 'outbound',
    body: 'Spring sale: 20% off',
    status: 'delivered',
    created_at: '2026-11-02 09:30:00',
    kind: 'campaign',
    campaign_uuid: 'c1',
    author: null,
  },
  {
    direction: 'inbound',
    body: 'Do you ship to Ireland?',
    status: 'received',
    created_at: '2026-11-03 09:05:00',
    kind: 'inbound',
    campaign_uuid: null,
    author: null,
  },
];

interface Serve {
  state?: Partial<Conversation>;
}

/** The bodies of the replies the page sent. */
let sent: string[] = [];

function serve({ state = {} }: Serve = {}) {
  signIn();
  sent = [];
  return mockApi(async (request, url) => {
    if (url.pathname === '/api/2.0/conversations/' || url.pathname === '/api/2.0/conversations')
      return json(page([conversation(state), conversation({ phone_number: '447700900200', name: '', unread: false, last_message: null })]));
    if (url.pathname === `/api/2.0/conversations/${ADA}/messages` && request.method === 'POST') {
      const { body } = (await request.json()) as { body: string };
      sent.push(body);
      return json(
        { data: { direction: 'outbound', body, status: 'queued', created_at: '2026-11-03 09:10:00', kind: 'inbox_reply', campaign_uuid: null, author: ME } },
        201,
      );
    }
    if (url.pathname === `/api/2.0/conversations/${ADA}`) return json({ ...page(MESSAGES), conversation: conversation({ ...state, unread: false }) });
    if (url.pathname === `/api/2.0/contacts/${ADA}`)
      return json({
        data: {
          phone_number: ADA,
          opted_out: state.opted_out ?? false,
          groups: [{ uuid: 'g1', name: 'VIP customers', custom_fields: { first_name: 'Ada', city: 'London' }, added_at: '2026-10-02 10:15:00' }],
          messages: { total: 0, items: [] },
          clicks: { total: 0, items: [] },
          inbound: { total: 0, items: [] },
          opt_out_events: { total: 0, items: [] },
        },
      });
    if (url.pathname.startsWith('/api/2.0/saved-replies'))
      return json(page([{ uuid: 's1', name: 'Shipping', body: 'We ship to Ireland in 3 days.', created_at: '', updated_at: '' }]));
    if (url.pathname.startsWith('/api/2.0/team/members')) return json(page([{ ...ME, role: 'admin', joined_at: '', last_seen_at: '' }]));
    return apiError(404, 'Unexpected request');
  });
}

function renderAt(role: Role, route = '/inbox') {
  return render(
    <Routes>
      <Route path="/inbox" element={<InboxPage />} />
      <Route path="/inbox/:phoneNumber" element={<InboxPage />} />
    </Routes>,
    { route, role },
  );
}

describe('the inbox', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists the conversations with their unread state, and filters them', async () => {
    const api = serve();
    const { user } = renderAt('editor');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const [ada, other] = within(list).getAllByRole('listitem');
    expect(within(ada!).getByRole('link')).toHaveAttribute('href', `/inbox/${ADA}`);
    expect(ada).toHaveTextContent('Ada Lovelace');
    expect(ada).toHaveTextContent('Unread');
    expect(ada).toHaveTextContent('Do you ship to Ireland?');
    expect(other).toHaveTextContent('+447700900200');
    expect(other).not.toHaveTextContent('Unread');

    await user.click(screen.getByRole('switch', { name: 'Unread only' }));
    await waitFor(() => expect(api.mock.calls.some(([request]) => new URL((request as Request).url).searchParams.get('unread') === 'true')).toBe(true));
    const requested = api.mock.calls.map(([request]) => new URL((request as Request).url)).filter((url) => url.pathname.startsWith('/api/2.0/conversations'));
    expect(requested[0]!.searchParams.get('status')).toBe('open');
  });

  it('shows a conversation newest last with the contact beside it, and sends a reply from a saved one', async () => {
    serve();
    const { user } = renderAt('editor', `/inbox/${ADA}`);
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All conversations' })).toHaveAttribute('href', '/inbox');
    const messages = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(messages.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Spring sale: 20% off'),
      expect.stringContaining('Do you ship to Ireland?'),
    ]);
    const contact = await screen.findByRole('region', { name: 'Contact' });
    expect(await within(contact).findByRole('link', { name: 'VIP customers' })).toHaveAttribute('href', '/contact-groups/g1');
    expect(contact).toHaveTextContent('cityLondon');

    const reply = screen.getByRole('textbox', { name: 'Reply' });
    await user.type(reply, 'Yes, we do');
    expect(screen.getByText(/10 characters · 1 SMS \(GSM\)/)).toBeInTheDocument();
    await user.clear(reply);
    await user.click(screen.getByRole('combobox', { name: 'Saved reply' }));
    await user.click(await screen.findByRole('option', { name: 'Shipping' }));
    expect(reply).toHaveValue('We ship to Ireland in 3 days.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(reply).toHaveValue(''));
    expect(sent).toEqual(['We ship to Ireland in 3 days.']);
    expect(screen.getByRole('button', { name: 'Close' })).toBeEnabled();
  });

  it('says why a number that opted out cannot be replied to, and offers no Send', async () => {
    serve({ state: { opted_out: true } });
    renderAt('editor', `/inbox/${ADA}`);
    expect(await screen.findByText(/This number opted out: it is on your suppression list/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Reply' })).not.toBeInTheDocument();
  });

  it('lets a viewer read but shows no composer and no actions', async () => {
    serve();
    renderAt('viewer', `/inbox/${ADA}`);
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Messages' })).toHaveTextContent('Do you ship to Ireland?');
    expect(screen.queryByRole('textbox', { name: 'Reply' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Snooze' })).not.toBeInTheDocument();
  });
});
