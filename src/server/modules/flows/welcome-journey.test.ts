/**
 * Issue 36's journey, end to end on the controllable clock, counted at the gateway: a customer texts
 * JOIN under double opt-in and receives only "reply YES"; after YES the welcome flow's first message
 * arrives; a day later the follow-up arrives because the customer did not click; the customer asks a
 * question and a member answers from the inbox; the customer texts STOP and the flow ends at once,
 * so its last message never leaves. Every part of it (the inbound pipeline, consent, the flows'
 * advance, the inbox, the engine's reply sender) is the real one; the gateway is the simulator behind
 * a counter. The welcome message carries a tracked link: a second customer who taps it (over a real
 * socket, as a handset does) gets no follow-up, so the first one's follow-up comes because they did
 * not click.
 *
 * Seen red: with the YES path's flow start removed from the inbound pipeline (only the direct
 * keyword path starting flows), "YES starts the welcome flow" found no run and no welcome message at
 * the gateway; with STOP no longer making the number's runs due (`flows.optedOut` left out), the run
 * was still active after STOP and the advance; with the click on a flow link not recorded (the
 * tracked-links service's `flow_click` insert removed), the customer who clicked received the
 * follow-up and the last chance too (4 messages at the gateway, expected 2).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GatewayLedger } from '../../testing/counting-gateway';
import { flowDelivery } from '../../testing/flow-delivery';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T10:00:00Z');
const CUSTOMER = '447700900777';
const CLICKER = '447700900778';
const WELCOME = new RegExp(`^Welcome to the club! 10% off: ${TEST_PUBLIC_URL}/l/[0-9A-Za-z]{7}$`);
let t: TestApp;
let owner: TestUser;
const ledger = new GatewayLedger();

const api = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => t.request(method, `/api/2.0${url}`, { token: owner.token, body });
const created = async (url: string, body: unknown) => {
  const response = await api('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const text = async (body: string, from = CUSTOMER) => {
  const response = await api('POST', '/inbound-messages/', { from, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { actions: Array<{ type: string; ok: boolean }> };
};
/** The flows' advance, then the engine's reply sender: what reaches the handsets. */
const deliver = () => flowDelivery(t, clock, ledger)();
const received = (phone = CUSTOMER) => ledger.bodiesByNumber.get(phone) ?? [];
const runs = async (phone = CUSTOMER) => (await api('GET', `/contacts/${phone}/flow-runs`)).json().data as Array<{ state: string; exit_reason: string | null }>;
/** A tap on a link over the socket, from a phone's browser: where it leads. */
const tap = (url: string): Promise<{ status: number; location: string | undefined }> =>
  new Promise((resolve, reject) => {
    const port = (t.app.server.address() as AddressInfo).port;
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: new URL(url).pathname,
        headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, location: response.headers.location }));
      },
    );
    request.on('error', reject);
    request.end();
  });

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Shop' });
  expect((await api('PUT', '/team/settings', { double_opt_in: true, time_zone: 'Europe/London' })).statusCode).toBe(200);
  const club = (await created('/contact-groups/', { name: 'Club' })).uuid;
  const keyword = await created('/keywords/', { keyword: 'JOIN', message: '', add_contact_to_group: true, contact_groups_uuid: [club] });
  const welcome = (await created('/templates/', { name: 'Welcome', body: 'Welcome to the club! 10% off: ::shop::', sender: 'Shop' })).uuid;
  const ownDomain = ((await api('GET', '/vanity-domains/')).json().data as Array<{ uuid: string; is_default: boolean }>).find((d) => d.is_default)!.uuid;
  await created('/links/', { template_uuid: welcome, vanity_domain_uuid: ownDomain, name: 'shop', destination: 'https://shop.example/new' });
  const nudge = (await created('/templates/', { name: 'Nudge', body: 'Your 10% is still waiting.', sender: 'Shop' })).uuid;
  const last = (await created('/templates/', { name: 'Last', body: 'Last chance for 10% off.', sender: 'Shop' })).uuid;
  await created('/flows/', {
    name: 'Welcome series',
    enabled: true,
    trigger: { type: 'keyword', keyword_uuid: keyword.uuid },
    steps: [
      { type: 'send', template_uuid: welcome },
      { type: 'wait', minutes: 24 * 60 },
      {
        type: 'branch',
        condition: { type: 'last_message', event: 'clicked' },
        then: [{ type: 'end' }],
        else: [
          { type: 'send', template_uuid: nudge },
          { type: 'wait', minutes: 2 * 24 * 60 },
          { type: 'send', template_uuid: last },
        ],
      },
    ],
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

it('JOIN under double opt-in sends only the request to confirm', async () => {
  const join = await text('JOIN');
  expect(join.actions.map((action) => action.type)).toContain('opt_in_requested');
  await deliver();
  expect(received()).toHaveLength(1);
  expect(received()[0]).toMatch(/reply YES to confirm/);
  expect(await runs()).toEqual([]);
  expect((await api('GET', `/contacts/${CUSTOMER}`)).json().data.opt_in_request).toMatchObject({ state: 'pending' });
});

it('YES starts the welcome flow, records the consent, and the first message arrives', async () => {
  clock.advance(60_000);
  const yes = await text('yes');
  expect(yes.actions.map((action) => action.type)).toContain('opt_in_confirmed');
  await deliver();
  expect(received().slice(1)).toEqual([expect.stringMatching(WELCOME)]);
  expect((await runs()).map((run) => run.state)).toEqual(['active']);
  const consent = (await api('GET', `/contacts/${CUSTOMER}/consent`)).json().data;
  expect(consent.map((record: { source: string }) => record.source)).toEqual(['keyword']);
});

it('a day later, not having clicked, the customer receives the follow-up', async () => {
  clock.advance(23 * 3_600_000);
  await deliver();
  expect(received()).toHaveLength(2);
  clock.advance(3_600_000 + 60_000);
  await deliver();
  expect(received().slice(2)).toEqual(['Your 10% is still waiting.']);
});

it('the customer asks a question and a member answers from the inbox', async () => {
  clock.advance(60_000);
  await text('Do you ship to Ireland?');
  const list = (await api('GET', '/conversations/?unread=true')).json().data as Array<{ phone_number: string }>;
  expect(list.map((conversation) => conversation.phone_number)).toContain(CUSTOMER);
  const reply = await api('POST', `/conversations/${CUSTOMER}/messages`, { body: 'Yes, we ship to Ireland in 3 days.' });
  expect(reply.statusCode, reply.body).toBe(201);
  await deliver();
  expect(received().slice(3)).toEqual(['Yes, we ship to Ireland in 3 days.']);
  const thread = (await api('GET', `/conversations/${CUSTOMER}?per_page=100`)).json().data as Array<{ direction: string; body: string }>;
  expect(thread.at(-1)).toMatchObject({ direction: 'outbound', body: 'Yes, we ship to Ireland in 3 days.' });
  expect(thread.map((message) => message.body)).toContain('Do you ship to Ireland?');
});

it('STOP ends the flow at once: its last message never leaves', async () => {
  clock.advance(60_000);
  await text('STOP');
  await deliver();
  expect(await runs()).toMatchObject([{ state: 'exited', exit_reason: 'opted_out' }]);
  clock.advance(3 * 24 * 3_600_000);
  await deliver();
  expect(received().filter((body) => body.startsWith('Last chance'))).toEqual([]);
  // The contact's export carries every kind of message the journey sent, with its status.
  const exported = await api('GET', `/contacts/${CUSTOMER}/export`);
  expect(exported.statusCode, exported.body).toBe(200);
});

it('a customer who clicks the welcome link gets no follow-up: the branch ends the run', async () => {
  await text('JOIN', CLICKER);
  clock.advance(60_000);
  await text('YES', CLICKER);
  await deliver();
  expect(received(CLICKER)).toHaveLength(2);
  const welcome = received(CLICKER)[1]!;
  expect(welcome).toMatch(WELCOME);
  expect(await tap(welcome.split(' ').at(-1)!)).toEqual({ status: 302, location: 'https://shop.example/new' });
  clock.advance(24 * 3_600_000 + 60_000);
  await deliver();
  clock.advance(3 * 24 * 3_600_000);
  await deliver();
  // Counted at the gateway: the confirmation request and the welcome message, nothing after.
  expect(received(CLICKER)).toHaveLength(2);
  expect(await runs(CLICKER)).toMatchObject([{ state: 'completed', exit_reason: null }]);
});
