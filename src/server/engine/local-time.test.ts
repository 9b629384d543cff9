/**
 * Sending at each recipient's local time (issue 35, point 4), driven on the test clock and counted
 * at the carrier: a ledger at the gateway's edge records every hand-over with the moment it came.
 * A campaign at 10:00 to a Londoner, a New Yorker and a Sydneysider sends each at their own 10:00,
 * nothing early; the expiry cuts off the zones it comes before (unsent `local_time`).
 *
 * Seen red: with the local-time hold taken out of the claim (`holdsOf` given no `local`), all three
 * numbers were handed over at 20:00 UTC the day before (10:00 at UTC+14, when the campaign starts),
 * and the missed zones were sent late; with the start left at the send date (start.ts without
 * `startMomentOf`), the campaign had not started at 20:00 UTC and Sydney waited for 10:00 in London;
 * with the expiry check taken out of `holdRun`, the New Yorker past the expiry was held until the
 * expiry and unsent as `pending`, not `local_time`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalEngine, messagesOfCampaign } from '../testing/arrival-engine';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';

// June: London is UTC+1, New York UTC−4, Sydney UTC+10. The service's zone (APP_TIMEZONE) is London.
const clock = createTestClock('2026-06-01T12:00:00Z');
let t: TestApp;
let admin: TestUser;
let template: string;
let group: string;
const LONDON = '447700900601';
/** Manhattan (212): New York's zone, from its area code. */
const NEW_YORK = '12125550101';
/** A Sydney landline (02): Sydney's zone, from its area code. */
const SYDNEY = '61291234567';

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = admin.token) => t.request(method, `/api/2.0${url}`, { token, body });

/** An engine whose carrier notes when (on the test clock) each message reached it. */
const engineWith = () => arrivalEngine(t, clock);

async function create(overrides: Record<string, unknown>) {
  const response = await call('POST', '/campaigns/', {
    name: 'Morning',
    sender: 'Acme',
    included_contact_groups: [group],
    template_uuid: template,
    local_time: true,
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid as string;
}
const messagesOf = (uuid: string) => messagesOfCampaign(t, uuid);

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.user({ team: 'Early birds' });
  await call('PUT', '/team/settings', { time_zone: 'Europe/London' });
  template = (await call('POST', '/templates/', { name: 'Hi', body: 'Good morning!', sender: 'Acme' })).json().data.uuid;
  group = (await call('POST', '/contact-groups/', { name: 'Everyone' })).json().data.uuid;
  await call('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [LONDON, NEW_YORK, SYDNEY].map((n) => ({ phone_number: `+${n}` })) });
});
afterAll(() => t.close());

describe('local time', () => {
  it("sends each message at the scheduled time in its recipient's zone, from the earliest zone to the latest", async () => {
    clock.set('2026-06-01T12:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-02 10:00:00', expiry_date: '2026-06-03 12:00:00' });
    expect((await call('GET', `/campaigns/${uuid}`)).json().data).toMatchObject({ local_time: true, is_locked: false });

    // The review shows the span: Sydney first (01:00 in London), New York last (15:00 in London).
    const review = (await call('GET', `/campaigns/${uuid}/review`)).json().data;
    expect(review.local_time).toEqual({
      send_time: '2026-06-02 10:00:00',
      first_at: '2026-06-02 01:00:00',
      last_at: '2026-06-02 15:00:00',
      zones: [
        { zone: 'Australia/Sydney', recipients: 1, send_at: '2026-06-02 01:00:00', after_expiry: false },
        { zone: 'Europe/London', recipients: 1, send_at: '2026-06-02 10:00:00', after_expiry: false },
        { zone: 'America/New_York', recipients: 1, send_at: '2026-06-02 15:00:00', after_expiry: false },
      ],
    });
    expect(review.starts_at).toBe('2026-06-02 01:00:00');

    const { engine, ledger, arrivals, gateway } = engineWith();
    const tickAt = async (at: string) => {
      clock.set(at);
      await engine.tick();
      await engine.tick();
      return ledger.total;
    };
    // 10:00 at UTC+14 is 20:00 UTC the day before: the campaign starts then (and is locked), and sends nothing yet.
    expect(await tickAt('2026-06-01T19:59:59Z')).toBe(0);
    expect((await call('GET', `/campaigns/${uuid}`)).json().data.status).toBe(0);
    expect(await tickAt('2026-06-01T20:00:00Z')).toBe(0);
    expect((await call('GET', `/campaigns/${uuid}`)).json().data).toMatchObject({ status: 1, is_locked: true });
    // Sydney's 10:00 is 00:00 UTC; London's 09:00 UTC; New York's 14:00 UTC. Nothing a second early.
    expect(await tickAt('2026-06-01T23:59:59Z')).toBe(0);
    expect(await tickAt('2026-06-02T00:00:01Z')).toBe(1);
    expect(await tickAt('2026-06-02T08:59:59Z')).toBe(1);
    expect(await tickAt('2026-06-02T09:00:01Z')).toBe(2);
    expect(await tickAt('2026-06-02T13:59:59Z')).toBe(2);
    expect((await call('GET', `/campaigns/${uuid}`)).json().data.status).toBe(1);
    expect(await tickAt('2026-06-02T14:00:01Z')).toBe(3);
    expect(arrivals).toEqual([
      { to: SYDNEY, at: '2026-06-02T00:00:01.000Z' },
      { to: LONDON, at: '2026-06-02T09:00:01.000Z' },
      { to: NEW_YORK, at: '2026-06-02T14:00:01.000Z' },
    ]);
    expect(ledger.duplicates()).toEqual([]);
    expect((await call('GET', `/campaigns/${uuid}`)).json().data.status).toBe(2);
    await gateway.close();
  });

  it('leaves unsent (local_time) the zones whose moment comes after the expiry, and finishes', async () => {
    clock.set('2026-06-01T12:00:00Z');
    // Expires at 12:00 in London (11:00 UTC): before New York's 10:00.
    const uuid = await create({ scheduled_send_date: '2026-06-02 10:00:00', expiry_date: '2026-06-02 12:00:00' });
    const review = (await call('GET', `/campaigns/${uuid}/review`)).json().data;
    expect(review.local_time.last_at).toBe('2026-06-02 10:00:00');
    expect(review.local_time.zones.map((z: { after_expiry: boolean }) => z.after_expiry)).toEqual([false, false, true]);
    const { engine, ledger, arrivals, gateway } = engineWith();
    for (const at of ['2026-06-01T20:00:00Z', '2026-06-02T00:00:01Z', '2026-06-02T09:00:01Z']) {
      clock.set(at);
      await engine.tick();
      await engine.tick();
    }
    expect(arrivals.map((a) => a.to)).toEqual([SYDNEY, LONDON]);
    expect(ledger.total).toBe(2);
    expect((await messagesOf(uuid)).find((m) => m.phone_number === NEW_YORK)).toEqual({ phone_number: NEW_YORK, status: 'unsent', reason: 'local_time' });
    expect((await call('GET', `/campaigns/${uuid}`)).json().data.status).toBe(2);
    clock.set('2026-06-02T14:00:01Z');
    await engine.tick();
    expect(ledger.total).toBe(2);
    await gateway.close();
  });

  it('does not send late to the zones whose moment had passed before the campaign was made', async () => {
    // Made at 10:30 UTC for 10:00 local: Sydney (00:00 UTC) and London (09:00 UTC) have passed; New York (14:00 UTC) has not.
    clock.set('2026-06-02T10:30:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-02 10:00:00', expiry_date: '2026-06-03 12:00:00' });
    const { engine, arrivals, gateway } = engineWith();
    await engine.tick();
    await engine.tick();
    expect(arrivals).toEqual([]);
    expect((await messagesOf(uuid)).filter((m) => m.status === 'unsent').map((m) => [m.phone_number, m.reason])).toEqual([
      [LONDON, 'local_time'],
      [SYDNEY, 'local_time'],
    ]);
    clock.set('2026-06-02T14:00:01Z');
    await engine.tick();
    expect(arrivals).toEqual([{ to: NEW_YORK, at: '2026-06-02T14:00:01.000Z' }]);
    await gateway.close();
  });

  it('refuses local time with a throttled campaign (422 naming the field)', async () => {
    clock.set('2026-06-01T12:00:00Z');
    const response = await call('POST', '/campaigns/', {
      name: 'Both',
      sender: 'Acme',
      included_contact_groups: [group],
      template_uuid: template,
      local_time: true,
      throttled: true,
      scheduled_send_date: '2026-06-02 10:00:00',
      scheduled_finish_date: '2026-06-02 12:00:00',
      expiry_date: '2026-06-03 12:00:00',
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().error.errors)).toEqual(['local_time']);
  });

  it('keeps an ordinary campaign as it was (local_time false, its send date in the service zone)', async () => {
    clock.set('2026-06-01T12:00:00Z');
    const uuid = await create({ local_time: undefined, scheduled_send_date: '2026-06-01 13:30:00', expiry_date: '2026-06-03 12:00:00' });
    const shown = (await call('GET', `/campaigns/${uuid}`)).json().data;
    expect(shown.local_time).toBe(false);
    expect((await call('GET', `/campaigns/${uuid}/review`)).json().data.local_time).toBeUndefined();
    const { engine, ledger, gateway } = engineWith();
    clock.set('2026-06-01T12:30:01Z');
    await engine.tick();
    expect(ledger.total).toBe(3);
    await gateway.close();
  });
});
