/**
 * Quiet hours in each recipient's own time (issue 19, point 3), driven on the test clock and counted
 * at the carrier: a ledger at the gateway's edge records every hand-over with the moment it came.
 *
 * Seen red: with the holds taken out of the claim (store/quiet-holds.ts `holdsOf` answering null), the French
 * numbers were handed over at 21:30 in Paris; with the quiet periods left out of the throttle plan
 * (engine.ts), the plan sent one message in the first open hour instead of two.
 * Issue 32, point 6, seen red: without the trigger of migration 0040 (release_held_batches), the
 * French number moved quiet hours let go stayed held (its batch's lease still ended at 08:00 in Paris),
 * and the one they still covered waited for the old end; with the area codes out of `zoneOfNumber`,
 * Los Angeles went at 05:30 its time with New York; without `held_messages`, the summary held 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalEngine, messagesOfCampaign } from '../testing/arrival-engine';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';

// June: London is UTC+1, Paris UTC+2. Quiet hours 21:00–08:00 every night.
const clock = createTestClock('2026-06-01T12:00:00Z');
let t: TestApp;
let admin: TestUser;
let template: string;
let group: string;
const UK = ['447700900601', '447700900602', '447700900603'];
const FRANCE = ['33612345601', '33612345602'];
/** Washington, D.C. (202): New York's zone, from its area code. */
const US = ['12025550101'];

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = admin.token) => t.request(method, `/api/2.0${url}`, { token, body });

/** An engine whose carrier notes when (on the test clock) each message reached it. */
const engineWith = (rateLimitPerSecond = 1000) => arrivalEngine(t, clock, rateLimitPerSecond);

async function create(overrides: Record<string, unknown>) {
  const response = await call('POST', '/campaigns/', {
    name: 'Evening',
    sender: 'Acme',
    included_contact_groups: [group],
    template_uuid: template,
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid as string;
}
const messagesOf = (uuid: string) => messagesOfCampaign(t, uuid);

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.user({ team: 'Night owls' });
  await call('PUT', '/team/settings', { time_zone: 'Europe/London', quiet_hours: { start: '21:00', end: '08:00' } });
  template = (await call('POST', '/templates/', { name: 'Hi', body: 'Good evening!', sender: 'Acme' })).json().data.uuid;
  group = (await call('POST', '/contact-groups/', { name: 'Everyone' })).json().data.uuid;
  await call('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [...UK, ...FRANCE, ...US].map((n) => ({ phone_number: `+${n}` })) });
});
afterAll(() => t.close());

describe('quiet hours', () => {
  it("holds each message while it is quiet hours in its recipient's zone, and sends it when they end", async () => {
    clock.set('2026-06-01T12:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-01 20:30:00', expiry_date: '2026-06-02 12:00:00' });
    const { engine, ledger, arrivals, gateway } = engineWith();
    // 20:30 in London, 21:30 in Paris: the British (and the American, in the team's zone) go; the French wait.
    clock.set('2026-06-01T19:30:00Z');
    await engine.tick();
    expect(arrivals.map((a) => a.to).sort()).toEqual([...US, ...UK].sort());
    for (const at of ['2026-06-01T20:05:00Z', '2026-06-02T03:00:00Z', '2026-06-02T05:59:59Z']) {
      clock.set(at);
      await engine.tick();
    }
    expect(ledger.total).toBe(4);
    // 08:00 in Paris (07:00 in London, still quiet there, but no Londoner is left).
    clock.set('2026-06-02T06:00:01Z');
    await engine.tick();
    await engine.tick();
    expect(arrivals.filter((a) => FRANCE.includes(a.to))).toEqual(FRANCE.map((to) => ({ to, at: '2026-06-02T06:00:01.000Z' })));
    expect(ledger.duplicates()).toEqual([]);
    expect(ledger.total).toBe(6);
    expect((await call('GET', `/campaigns/${uuid}`)).json().data.status).toBe(2);
    await gateway.close();
  });

  it('drops what it holds when the campaign is stopped', async () => {
    clock.set('2026-06-01T12:00:00Z');
    const uuid = await create({ scheduled_send_date: '2026-06-01 20:30:00', expiry_date: '2026-06-02 12:00:00' });
    const { engine, ledger, gateway } = engineWith();
    clock.set('2026-06-01T19:30:00Z');
    await engine.tick();
    expect((await call('PUT', `/campaigns/${uuid}/stop`)).statusCode).toBe(200);
    clock.set('2026-06-01T19:30:01Z');
    await engine.tick();
    clock.set('2026-06-02T06:00:01Z');
    await engine.tick();
    expect(ledger.total).toBe(4);
    expect((await messagesOf(uuid)).filter((m) => m.status === 'unsent')).toEqual(
      FRANCE.map((phone_number) => ({ phone_number, status: 'unsent', reason: 'stopped' })),
    );
    expect((await call('GET', `/campaigns/${uuid}`)).json().data.status).toBe(2);
    await gateway.close();
  });

  it('makes unsent (quiet_hours) what quiet hours would hold past the expiry', async () => {
    clock.set('2026-06-01T12:00:00Z');
    // Expires at 06:30 in London, 07:30 in Paris: before Paris wakes up.
    const uuid = await create({ scheduled_send_date: '2026-06-01 20:30:00', expiry_date: '2026-06-02 06:30:00' });
    const { engine, ledger, gateway } = engineWith();
    clock.set('2026-06-01T19:30:00Z');
    await engine.tick();
    expect(ledger.total).toBe(4);
    expect((await messagesOf(uuid)).filter((m) => m.status === 'unsent')).toEqual(
      FRANCE.map((phone_number) => ({ phone_number, status: 'unsent', reason: 'quiet_hours' })),
    );
    expect((await call('GET', `/campaigns/${uuid}`)).json().data.status).toBe(2);
    await gateway.close();
  });

  it('sends through quiet hours a campaign an admin let through', async () => {
    clock.set('2026-06-01T12:00:00Z');
    await create({ scheduled_send_date: '2026-06-01 22:30:00', expiry_date: '2026-06-02 12:00:00', ignore_quiet_hours: true });
    const { engine, ledger, gateway } = engineWith();
    clock.set('2026-06-01T21:30:00Z');
    await engine.tick();
    expect(ledger.total).toBe(6);
    await gateway.close();
  });

  it('spreads a throttled campaign over the open time around quiet hours', async () => {
    clock.set('2026-06-01T12:00:00Z');
    // Open 20:00–21:00 and 08:00–09:00 in London: two hours for three British numbers (the others: a group of their own below).
    const british = (await call('POST', '/contact-groups/', { name: 'British' })).json().data.uuid;
    await call('PUT', `/contact-groups/${british}/add-contacts`, { contacts: [...UK, '447700900604'].map((n) => ({ phone_number: `+${n}` })) });
    await create({
      included_contact_groups: [british],
      scheduled_send_date: '2026-06-01 20:00:00',
      expiry_date: '2026-06-02 12:00:00',
      throttled: true,
      scheduled_finish_date: '2026-06-02 09:00:00',
    });
    const { engine, ledger, gateway } = engineWith();
    const tickAt = async (at: string) => {
      clock.set(at);
      await engine.tick();
      return ledger.total;
    };
    expect(await tickAt('2026-06-01T19:00:00Z')).toBe(1);
    // Half the open time gone at 21:00: half the four.
    expect(await tickAt('2026-06-01T19:59:59Z')).toBe(2);
    expect(await tickAt('2026-06-01T23:00:00Z')).toBe(2);
    expect(await tickAt('2026-06-02T07:15:00Z')).toBe(3);
    expect(await tickAt('2026-06-02T07:59:59Z')).toBe(4);
    await gateway.close();
  });

  describe('that follow their settings (issue 32, point 6)', () => {
    /** A team of its own (London, quiet 21:00–08:00), a template and a group of `numbers`: a campaign to them at `send` (London). */
    async function teamCampaign(name: string, numbers: string[], send: string, expiry: string, overrides: Record<string, unknown> = {}) {
      const owner = await t.user({ team: name });
      const as = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => call(method, url, body, owner.token);
      await as('PUT', '/team/settings', { time_zone: 'Europe/London', quiet_hours: { start: '21:00', end: '08:00' } });
      const templateUuid = (await as('POST', '/templates/', { name: 'Hi', body: 'Hello!', sender: 'Acme' })).json().data.uuid;
      const groupUuid = (await as('POST', '/contact-groups/', { name: 'Them' })).json().data.uuid;
      await as('PUT', `/contact-groups/${groupUuid}/add-contacts`, { contacts: numbers.map((n) => ({ phone_number: `+${n}` })) });
      const created = await as('POST', '/campaigns/', {
        name,
        sender: 'Acme',
        included_contact_groups: [groupUuid],
        template_uuid: templateUuid,
        scheduled_send_date: send,
        expiry_date: expiry,
        ...overrides,
      });
      expect(created.statusCode, created.body).toBe(201);
      return { as, uuid: created.json().data.uuid as string };
    }

    it('releases at the next tick what was held under quiet hours that have moved, and counts what it holds', async () => {
      clock.set('2026-06-01T12:00:00Z');
      const briton = '447700900611';
      const french = '33612345611';
      const { as, uuid } = await teamCampaign('Movers', [briton, french], '2026-06-01 20:30:00', '2026-06-02 12:00:00');
      const { engine, ledger, arrivals, gateway } = engineWith();
      const received = () => arrivals.filter((a) => a.to === briton || a.to === french);
      // 20:30 in London, 21:30 in Paris: the Frenchman waits for 08:00 in Paris.
      clock.set('2026-06-01T19:30:00Z');
      await engine.tick();
      expect(received()).toEqual([{ to: briton, at: '2026-06-01T19:30:00.000Z' }]);
      expect((await as('GET', `/campaigns/${uuid}/summary`)).json().data).toMatchObject({ queued: 1, held_for_quiet_hours: 1 });
      clock.set('2026-06-01T19:35:00Z');
      await engine.tick();
      expect(received()).toHaveLength(1);
      // Quiet hours now start at 22:00: it is 21:35 in Paris, so he may have it at the next tick, not at 08:00.
      expect((await as('PUT', '/team/settings', { quiet_hours: { start: '22:00', end: '08:00' } })).statusCode).toBe(200);
      expect((await as('GET', `/campaigns/${uuid}/summary`)).json().data).toMatchObject({ queued: 1, held_for_quiet_hours: 0 });
      clock.set('2026-06-01T19:35:01Z');
      await engine.tick();
      expect(received()).toEqual([
        { to: briton, at: '2026-06-01T19:30:00.000Z' },
        { to: french, at: '2026-06-01T19:35:01.000Z' },
      ]);
      expect(ledger.byNumber.get(french)).toBe(1);
      expect((await as('GET', `/campaigns/${uuid}`)).json().data.status).toBe(2);
      await gateway.close();
    });

    it('holds again, until the new end, what the moved quiet hours still cover', async () => {
      clock.set('2026-06-01T12:00:00Z');
      const french = '33612345612';
      const { as } = await teamCampaign('Earlier risers', [french], '2026-06-01 20:30:00', '2026-06-02 12:00:00');
      const { engine, arrivals, gateway } = engineWith();
      clock.set('2026-06-01T19:30:00Z');
      await engine.tick();
      // Quiet hours now end at 07:00 (05:00 UTC in Paris) instead of 08:00.
      expect((await as('PUT', '/team/settings', { quiet_hours: { start: '21:00', end: '07:00' } })).statusCode).toBe(200);
      for (const at of ['2026-06-01T19:30:01Z', '2026-06-02T04:59:59Z']) {
        clock.set(at);
        await engine.tick();
      }
      expect(arrivals.filter((a) => a.to === french)).toEqual([]);
      clock.set('2026-06-02T05:00:01Z');
      await engine.tick();
      expect(arrivals.filter((a) => a.to === french)).toEqual([{ to: french, at: '2026-06-02T05:00:01.000Z' }]);
      await gateway.close();
    });

    it('holds a number in Los Angeles while one in New York goes, each by its own zone', async () => {
      clock.set('2026-06-01T12:00:00Z');
      const newYork = '12125550611';
      const losAngeles = '13105550611';
      // 08:30 in New York is 05:30 in Los Angeles (and 13:30 in London, the team's zone, where nothing is quiet).
      const { as, uuid } = await teamCampaign('Coast to coast', [newYork, losAngeles], '2026-06-02 13:30:00', '2026-06-03 12:00:00');
      const { engine, arrivals, gateway } = engineWith();
      const received = () => arrivals.filter((a) => a.to === newYork || a.to === losAngeles);
      clock.set('2026-06-02T12:30:00Z');
      await engine.tick();
      expect(received()).toEqual([{ to: newYork, at: '2026-06-02T12:30:00.000Z' }]);
      expect((await as('GET', `/campaigns/${uuid}/summary`)).json().data.held_for_quiet_hours).toBe(1);
      clock.set('2026-06-02T14:59:59Z');
      await engine.tick();
      expect(received()).toHaveLength(1);
      // 08:00 in Los Angeles.
      clock.set('2026-06-02T15:00:01Z');
      await engine.tick();
      expect(received()).toEqual([
        { to: newYork, at: '2026-06-02T12:30:00.000Z' },
        { to: losAngeles, at: '2026-06-02T15:00:01.000Z' },
      ]);
      await gateway.close();
    });

    // Seen red: without `pausedUntil` (campaigns.service.ts) the campaign read as sending, paused_until "".
    it('says until when a planned pause holds a sending campaign', async () => {
      clock.set('2026-06-01T08:00:00Z');
      const numbers = ['447700900621', '447700900622', '447700900623', '447700900624'];
      const { as, uuid } = await teamCampaign('Lunch break', numbers, '2026-06-01 10:00:00', '2026-06-01 20:00:00', {
        throttled: true,
        scheduled_finish_date: '2026-06-01 16:00:00',
        pauses: [
          { start_at: '2026-06-01 12:00:00', end_at: '2026-06-01 13:00:00' },
          { start_at: '2026-06-01 13:00:00', end_at: '2026-06-01 13:30:00' },
        ],
      });
      const { engine, gateway } = engineWith();
      clock.set('2026-06-01T09:00:00Z');
      await engine.tick();
      const pausedUntil = async () => (await as('GET', `/campaigns/${uuid}`)).json().data as { status: number; paused_until: string };
      expect(await pausedUntil()).toMatchObject({ status: 1, paused_until: '' });
      // 12:15 in London: inside the first pause, which the second one prolongs without a gap.
      clock.set('2026-06-01T11:15:00Z');
      expect(await pausedUntil()).toMatchObject({ status: 1, paused_until: '2026-06-01 13:30:00' });
      clock.set('2026-06-01T12:30:00Z');
      expect((await as('GET', '/campaigns/')).json().data.find((c: { uuid: string }) => c.uuid === uuid).paused_until).toBe('');
      await gateway.close();
    });
  });
});
