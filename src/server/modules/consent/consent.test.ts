/**
 * Consent you can prove (issue 36, point 3): the double opt-in state machine on the controllable
 * clock, consent records per source, the consent route, the export and the erasure. What is counted
 * is what a team sees over the API and the confirmations queued for the gateway (outbound_replies).
 *
 * Shown able to fail: with the `expires_at > now` condition removed from `pendingFor` and `confirm`
 * (opt-in.repository.ts), "a late YES does nothing" went red (the number joined VIP 49 hours on);
 * with `expireOf` removed from the STOP path (built-in-words.ts), "STOP during pending" went red
 * (the request stayed pending); with the resend window ignored (`queued` always true in
 * consent.repository.ts), the renewal test went red (the second sign-up within 10 minutes texted again);
 * with `takeRefusals` skipped in the import's merge, the import test went red (the "no" rows were
 * imported into the group as marketable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-11-20T10:00:00Z');
const HOUR = 3_600_000;
let t: TestApp;
let owner: TestUser;
let viewer: TestUser;
let vip: string;

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
  t.request(method, `/api/2.0${path}`, { token: user.token, body });
const text = async (from: string, body: string) => {
  const response = await call(owner, 'POST', '/inbound-messages/', { from, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { uuid: string; actions: Array<{ type: string; ok: boolean; description: string }> };
};
const vipMembers = async () =>
  (await call(owner, 'GET', `/contact-groups/${vip}/contacts?per_page=100`)).json().data.map((c: { phone_number: string }) => c.phone_number);
const consentOf = async (number: string, user = owner) => (await call(user, 'GET', `/contacts/${number}/consent`)).json().data;
const confirmations = async (number: string) =>
  Number((await t.database.pool.query(`SELECT count(*) AS n FROM outbound_replies WHERE to_number = $1 AND kind = 'confirmation'`, [number])).rows[0].n);
const repliesTo = async (number: string) =>
  (await t.database.pool.query(`SELECT body FROM outbound_replies WHERE to_number = $1 AND kind = 'keyword_reply' ORDER BY id`, [number])).rows.map(
    (row: { body: string }) => row.body,
  );
const requestOf = async (number: string) => (await call(owner, 'GET', `/contacts/${number}`)).json().data.opt_in_request;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Acme' });
  const user = await t.user();
  await t.services.users.addToTeam(user.email, 'Acme', 'viewer');
  const team = (await t.services.teamsRepository.findByName('Acme'))!;
  const id = (await t.services.usersRepository.findByEmail(user.email))!.id;
  viewer = { ...user, token: (await t.services.tokens.issue(id, 'personal', 'test', { teamId: team.id })).token };
  vip = (await call(owner, 'POST', '/contact-groups/', { name: 'VIP' })).json().data.uuid;
  const keyword = await call(owner, 'POST', '/keywords/', {
    keyword: 'JOIN',
    message: 'Welcome to VIP!',
    add_contact_to_group: true,
    contact_groups_uuid: [vip],
  });
  expect(keyword.statusCode, keyword.body).toBe(201);
});
afterAll(() => t.close());

describe('without double opt-in (the default)', () => {
  it('joins at once, as the spec says, and records the keyword consent with its message as evidence', async () => {
    expect((await call(owner, 'GET', '/team/settings')).json().data.double_opt_in).toBe(false);
    const message = await text('07700 900501', 'JOIN');
    expect(message.actions.map((a) => [a.type, a.ok])).toEqual([
      ['added_to_group', true],
      ['reply_queued', true],
    ]);
    expect(await vipMembers()).toContain('447700900501');
    expect(await consentOf('447700900501')).toEqual([
      {
        uuid: expect.any(String),
        source: 'keyword',
        at: '2026-11-20 10:00:00',
        text_shown: 'Welcome to VIP!',
        evidence: { inbound_message_uuid: message.uuid, keyword_uuid: expect.any(String) },
      },
    ]);
    expect(await requestOf('447700900501')).toBeNull();
  });

  it('records api consent for numbers an API token adds to a group, once per number, with the token', async () => {
    const added = await call(owner, 'PUT', `/contact-groups/${vip}/add-contacts`, {
      contacts: [{ phone_number: '07700 900502' }, { phone_number: '07700 900501' }],
    });
    expect(added.statusCode, added.body).toBe(200);
    await call(owner, 'PUT', `/contact-groups/${vip}/add-contacts`, { contacts: [{ phone_number: '07700 900502', custom_fields: { name: 'Bo' } }] });
    const { rows } = await t.database.pool.query(`SELECT uuid FROM api_tokens WHERE kind = 'personal' ORDER BY id LIMIT 1`);
    expect(await consentOf('447700900502')).toEqual([
      { uuid: expect.any(String), source: 'api', at: '2026-11-20 10:00:00', text_shown: '', evidence: { user_uuid: owner.userUuid, token_uuid: rows[0].uuid } },
    ]);
    // The keyword's consent stays the number's only one: an API write is no new agreement for it.
    expect((await consentOf('447700900501')).map((r: { source: string }) => r.source)).toEqual(['keyword']);
  });

  it('answers 404 for a number the team knows nothing of, and for another team', async () => {
    expect((await call(owner, 'GET', '/contacts/07700900599/consent')).statusCode).toBe(404);
    const stranger = await t.user();
    expect((await call(stranger, 'GET', '/contacts/447700900501/consent')).statusCode).toBe(404);
  });
});

describe('the team setting', () => {
  it('a viewer reads consent and the setting but cannot change it; an admin turns it on; a bad value is a 422', async () => {
    expect((await call(viewer, 'GET', '/contacts/447700900501/consent')).statusCode).toBe(200);
    expect((await call(viewer, 'GET', '/team/settings')).json().data.double_opt_in).toBe(false);
    expect((await call(viewer, 'PUT', '/team/settings', { double_opt_in: true })).statusCode).toBe(403);
    const bad = await call(owner, 'PUT', '/team/settings', { double_opt_in: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.errors).toEqual({ double_opt_in: ['The double opt in must be true or false.'] });
    const on = await call(owner, 'PUT', '/team/settings', { double_opt_in: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.double_opt_in).toBe(true);
  });
});

describe('double opt-in', () => {
  it('pending, then confirmed by YES within 48 hours: joined, consent recorded with both messages, the welcome sent once', async () => {
    clock.set('2026-11-21T09:00:00Z');
    const join = await text('07700 900511', 'Join');
    expect(join.actions.map((a) => [a.type, a.ok])).toEqual([['opt_in_requested', true]]);
    expect(await vipMembers()).not.toContain('447700900511');
    expect(await confirmations('447700900511')).toBe(1);
    expect(await repliesTo('447700900511')).toEqual([]);
    expect(await requestOf('447700900511')).toEqual({
      state: 'pending',
      source: 'keyword',
      requested_at: '2026-11-21 09:00:00',
      expires_at: '2026-11-23 09:00:00',
      decided_at: '',
    });
    expect(await consentOf('447700900511')).toEqual([]);

    clock.advance(47 * HOUR);
    const yes = await text('07700 900511', 'yes please');
    expect(yes.actions.map((a) => [a.type, a.ok])).toEqual([
      ['opt_in_confirmed', true],
      ['added_to_group', true],
      ['reply_queued', true],
    ]);
    expect(await vipMembers()).toContain('447700900511');
    const [record] = await consentOf('447700900511');
    expect(record).toMatchObject({
      source: 'keyword',
      at: '2026-11-23 08:00:00',
      text_shown: 'Acme: reply YES to confirm you want our text messages. Msg & data rates may apply; reply STOP to opt out.',
      evidence: {
        inbound_message_uuid: join.uuid,
        confirmation_message_uuid: yes.uuid,
        keyword_uuid: expect.any(String),
        opt_in_request_uuid: expect.any(String),
      },
    });
    expect((await requestOf('447700900511')).state).toBe('confirmed');
    expect(await repliesTo('447700900511')).toEqual(['Welcome to VIP!']);

    // A second YES is an ordinary message: nothing more happens.
    const again = await text('07700 900511', 'YES');
    expect(again.actions).toEqual([]);
    expect(await consentOf('447700900511')).toHaveLength(1);
    expect(await confirmations('447700900511')).toBe(1);
    // A number with consent is no sign-up: its keyword joins at once.
    expect((await text('07700 900511', 'JOIN')).actions.map((a) => a.type)).toEqual(['added_to_group', 'reply_queued']);
  });

  it('expires after 48 hours: the job marks it, and a late YES does nothing but the normal pipeline', async () => {
    clock.set('2026-11-25T09:00:00Z');
    await text('07700 900512', 'JOIN');
    await text('07700 900513', 'JOIN');
    clock.advance(48 * HOUR + 60_000);
    expect(await t.services.consent.expireDue()).toBe(2);
    expect(await requestOf('447700900512')).toMatchObject({ state: 'expired', decided_at: '2026-11-27 09:00:00' });
    expect((await text('07700 900512', 'YES')).actions).toEqual([]);
    expect(await vipMembers()).not.toContain('447700900512');
    expect(await consentOf('447700900512')).toEqual([]);

    // A late YES before the job has run: the pipeline checks the time itself.
    clock.set('2026-11-29T09:00:00Z');
    await text('07700 900514', 'JOIN');
    clock.advance(49 * HOUR);
    expect((await text('07700 900514', 'Yes')).actions).toEqual([]);
    expect(await vipMembers()).not.toContain('447700900514');
    expect(await requestOf('447700900514')).toMatchObject({ state: 'pending' });
  });

  it('STOP during pending expires the request; a YES afterwards joins nothing', async () => {
    clock.set('2026-12-05T09:00:00Z');
    await text('07700 900515', 'JOIN');
    clock.advance(HOUR);
    const stop = await text('07700 900515', 'STOP');
    expect(stop.actions.map((a) => a.type)).toContain('opted_out');
    expect(await requestOf('447700900515')).toMatchObject({ state: 'expired', decided_at: '2026-12-05 10:00:00' });
    expect((await text('07700 900515', 'YES')).actions).toEqual([]);
    expect(await vipMembers()).not.toContain('447700900515');
  });

  it('a second sign-up within 10 minutes renews the request without a second text; later it texts again', async () => {
    clock.set('2026-12-10T09:00:00Z');
    await text('07700 900516', 'JOIN');
    clock.advance(5 * 60_000);
    const renewed = await text('07700 900516', 'JOIN');
    expect(renewed.actions).toEqual([{ type: 'opt_in_requested', ok: true, description: expect.stringContaining('renewed without texting it again') }]);
    expect(await confirmations('447700900516')).toBe(1);
    expect(await requestOf('447700900516')).toMatchObject({ state: 'pending', requested_at: '2026-12-10 09:05:00', expires_at: '2026-12-12 09:05:00' });
    clock.advance(11 * 60_000);
    await text('07700 900516', 'JOIN');
    expect(await confirmations('447700900516')).toBe(2);
  });
});

describe('the export and erasure', () => {
  it('exports the consent records and requests, and erasure deletes them in its transaction', async () => {
    const exported = await call(owner, 'GET', '/contacts/447700900511/export');
    expect(exported.statusCode, exported.body).toBe(200);
    const document = exported.json().data;
    // The YES's consent, and the keyword's when the number, consenting already, texted JOIN again (each keyword text is the number's own act).
    expect(document.consent_records.map((r: { source: string }) => r.source)).toEqual(['keyword', 'keyword']);
    expect(document.opt_in_requests).toEqual([
      expect.objectContaining({ state: 'confirmed', source: 'keyword', text_shown: expect.stringContaining('reply YES'), evidence: expect.any(Object) }),
    ]);

    // A number only asked (no group, no consent) is still one the team holds: shown, exported, erased.
    expect((await call(owner, 'GET', '/contacts/447700900516/export')).json().data.opt_in_requests).toHaveLength(1);

    // The queued confirmation and replies must be out of the way first (erasure waits for what is still to be sent).
    await t.database.pool.query(`UPDATE outbound_replies SET status = 'submitted' WHERE to_number IN ('447700900511', '447700900516')`);
    expect((await call(owner, 'DELETE', '/contacts/447700900511')).statusCode).toBe(200);
    const left = await t.database.pool.query(
      `SELECT (SELECT count(*) FROM consent_records WHERE phone_number = '447700900511')::int AS records,
              (SELECT count(*) FROM opt_in_requests WHERE phone_number = '447700900511')::int AS requests`,
    );
    expect(left.rows[0]).toEqual({ records: 0, requests: 0 });
    expect((await call(owner, 'GET', '/contacts/447700900511/consent')).statusCode).toBe(404);
  });
});

describe('the import consent column', () => {
  const importCsv = (group: string, csv: string, query: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/2.0/contact-groups/${group}/imports?${query}`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/csv', accept: 'application/json' },
      payload: csv,
    });

  it('imports yes rows with a consent record, suppresses no rows, and leaves an unknown value out as a row error', async () => {
    clock.set('2026-12-20T09:00:00Z');
    const group = (await call(owner, 'POST', '/contact-groups/', { name: 'Newsletter' })).json().data.uuid;
    const csv = 'Phone,Name,Accepts SMS Marketing\n07700900601,Ada,Yes\n07700900602,Bo,no\n07700900603,Cy,TRUE\n07700900604,Di,0\n07700900605,Ed,maybe\n';
    const response = await importCsv(group, csv, 'file_name=shop.csv&consent_column=accepts%20sms%20marketing');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ status: 'completed', rows_valid: 4, rows_invalid: 1, contacts_added: 2, contacts_suppressed: 2 });
    const members = (await call(owner, 'GET', `/contact-groups/${group}/contacts`)).json().data;
    expect(members.map((c: { phone_number: string; custom_fields: Record<string, string> }) => [c.phone_number, c.custom_fields])).toEqual([
      ['447700900601', { name: 'Ada' }],
      ['447700900603', { name: 'Cy' }],
    ]);
    const errors = (await call(owner, 'GET', `/contact-imports/${response.json().data.uuid}/errors`)).json().data;
    expect(errors).toEqual([{ row: 6, value: 'maybe', reason: 'The consent must be yes or no (or true/false, 1/0, y/n).' }]);
    expect((await call(owner, 'GET', '/contacts/447700900602')).json().data.opted_out).toBe(true);
    expect((await call(owner, 'GET', '/opt-out-events?phone_number=447700900604')).json().data).toMatchObject([{ kind: 'opt_out', source: 'import' }]);
    expect(await consentOf('447700900601')).toEqual([
      {
        uuid: expect.any(String),
        source: 'import',
        at: '2026-12-20 09:00:00',
        text_shown: '',
        evidence: { import_uuid: response.json().data.uuid, file_name: 'shop.csv', row: 2 },
      },
    ]);
    expect(await consentOf('447700900602')).toEqual([]);
  });

  it('names a consent column the file lacks, and refuses one for default_optouts', async () => {
    const group = (await call(owner, 'POST', '/contact-groups/', { name: 'Other' })).json().data.uuid;
    const missing = await importCsv(group, 'Phone\n07700900611\n', 'consent_column=Consent');
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().error.errors)).toEqual(['consent_column']);
    const lists = (await call(owner, 'GET', '/contact-groups/?search=default_optouts')).json().data as Array<{ uuid: string; name: string }>;
    const optouts = lists.find((list) => list.name === 'default_optouts')!.uuid;
    const refused = await importCsv(optouts, 'Phone,Consent\n07700900612,no\n', 'consent_column=Consent');
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().error.errors)).toEqual(['consent_column']);
  });
});
