/**
 * Routes (issue 34, point 2): a team's ordered rules choosing connections by the recipient's
 * country, for its admins only, checked against the team's own connections; a connection a route or
 * an in-flight message uses cannot be deleted (409); a connection's price per SMS part by country.
 *
 * Seen red once each: with the team condition taken out of `connectionsAmong` (`c.team_id = …`),
 * another team's connection was taken (200 instead of 422); with the "rule after *" refinement of
 * SmsRoutesInputSchema removed, a rule after `*` was stored; with the sender check of `replace`
 * removed, a sender no connection sends from was stored; with the `usesOf` check in the connection's
 * delete removed, all three in-use deletes answered 204; with the connection edit's route-sender
 * check removed, an edit dropped the sender a route sends from (200 instead of 422).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';

const API = '/api/2.0';
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  admin = await t.user({ team: 'Routes Co' });
});
afterAll(() => t.close());

const TWILIO = { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'tok-secret-0123456789abcdef' };

async function connection(body: Record<string, unknown>, user = admin): Promise<{ uuid: string; name: string }> {
  const response = await t.request('POST', `${API}/sms-connections/`, { token: user.token, body: { name: 'Sim', provider: 'simulator', ...body } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}
const put = (routes: unknown, user = admin) => t.request('PUT', `${API}/sms-routes`, { token: user.token, body: { routes } });
const get = (user = admin) => t.request('GET', `${API}/sms-routes`, { token: user.token });
const errorsOf = (response: { json: () => { error: { errors?: Record<string, string[]> } } }) => response.json().error.errors ?? {};

describe('GET and PUT /sms-routes', () => {
  it('answers no routes for a team without any, then the rules as put, in order, with sender null when unset', async () => {
    const user = await t.user();
    expect(get(user).then((r) => r.json())).resolves.toEqual({ routes: [] });
    const twilio = await connection({ name: 'Twilio', provider: 'twilio', credentials: TWILIO, senders: ['+447700900001', 'Acme'] }, user);
    const sim = await connection({ name: 'Sim' }, user);
    const routes = [
      { countries: ['GB', 'IE'], connections: [twilio.uuid, sim.uuid], sender: 'Acme' },
      { countries: ['*'], connections: [sim.uuid] },
    ];
    const response = await put(routes, user);
    expect(response.statusCode, response.body).toBe(200);
    const expected = { routes: [routes[0], { ...routes[1], sender: null }] };
    expect(response.json()).toEqual(expected);
    expect((await get(user)).json()).toEqual(expected);
    // Stored as the router reads it (RouteRule).
    const { rows } = await t.database.pool.query('SELECT rules FROM sms_routes r JOIN teams k ON k.id = r.team_id WHERE k.uuid = $1', [user.teamUuid]);
    expect(rows[0].rules).toEqual(expected.routes);
  });

  it('records each change in the audit log, before and after', async () => {
    const user = await t.user();
    const sim = await connection({}, user);
    expect((await put([{ countries: ['FR'], connections: [sim.uuid] }], user)).statusCode).toBe(200);
    const events = (await t.request('GET', `${API}/audit-events?action=updateSmsRoutes`, { token: user.token })).json().data;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      resource_type: 'sms_routes',
      changes: { 'routes.1.countries': { after: ['FR'] }, 'routes.1.connections': { after: [sim.uuid] } },
    });
    expect((await put([{ countries: ['DE'], connections: [sim.uuid] }], user)).statusCode).toBe(200);
    const latest = (await t.request('GET', `${API}/audit-events?action=updateSmsRoutes`, { token: user.token })).json().data[0];
    expect(latest.changes).toEqual({ 'routes.1.countries': { before: ['FR'], after: ['DE'] } });
  });

  it('removes the routes with an empty list (no row: no routes)', async () => {
    const user = await t.user();
    const sim = await connection({}, user);
    expect((await put([{ countries: ['FR'], connections: [sim.uuid] }], user)).statusCode).toBe(200);
    expect((await put([], user)).json()).toEqual({ routes: [] });
    const { rows } = await t.database.pool.query('SELECT 1 FROM sms_routes r JOIN teams k ON k.id = r.team_id WHERE k.uuid = $1', [user.teamUuid]);
    expect(rows).toHaveLength(0);
  });
});

describe('validation (422 naming the field)', () => {
  let sim: { uuid: string };
  let twilio: { uuid: string };
  beforeAll(async () => {
    sim = await connection({ name: 'Sim 2' });
    twilio = await connection({ name: 'Twilio', provider: 'twilio', credentials: TWILIO, senders: ['+447700900001'] });
  });

  const refused = async (routes: unknown, field: string, message?: RegExp) => {
    const before = (await get()).body;
    const response = await put(routes);
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys(errorsOf(response)), response.body).toContain(field);
    if (message) expect(errorsOf(response)[field]!.join(' ')).toMatch(message);
    expect((await get()).body).toBe(before);
  };

  it('refuses countries that are not ISO 3166 alpha-2 in capitals, empty, repeated, or * beside countries', async () => {
    await refused([{ countries: ['GB', 'gb'], connections: [sim.uuid] }], 'routes.0.countries.1', /not a country/);
    await refused([{ countries: ['XX'], connections: [sim.uuid] }], 'routes.0.countries.0', /not a country/);
    await refused([{ countries: ['GBR'], connections: [sim.uuid] }], 'routes.0.countries.0');
    await refused([{ countries: [], connections: [sim.uuid] }], 'routes.0.countries', /empty/);
    await refused([{ countries: ['GB', 'FR', 'GB'], connections: [sim.uuid] }], 'routes.0.countries.2', /already/);
    await refused([{ countries: ['GB', '*'], connections: [sim.uuid] }], 'routes.0.countries.1', /only country/);
    await refused([{ countries: 'GB', connections: [sim.uuid] }], 'routes.0.countries');
  });

  it('refuses connections that are empty, repeated, more than 10, not uuids or unknown; takes an SMPP connection', async () => {
    await refused([{ countries: ['GB'], connections: [] }], 'routes.0.connections');
    await refused([{ countries: ['GB'], connections: [sim.uuid, sim.uuid] }], 'routes.0.connections.1', /already/);
    await refused([{ countries: ['GB'], connections: Array.from({ length: 11 }, () => crypto.randomUUID()) }], 'routes.0.connections', /10/);
    await refused([{ countries: ['GB'], connections: ['not-a-uuid'] }], 'routes.0.connections.0');
    await refused([{ countries: ['GB'], connections: [sim.uuid, crypto.randomUUID()] }], 'routes.0.connections.1', /No such connection/);
    const smpp = await connection({ name: 'Bind', provider: 'smpp', credentials: { url: 'smpp://herald:pass@127.0.0.1:2775' } });
    const routed = await t.request('PUT', '/api/2.0/sms-routes', { token: admin.token, body: { routes: [{ countries: ['GB'], connections: [smpp.uuid] }] } });
    expect(routed.statusCode).toBe(200);
  });

  it("refuses another team's connection as no such connection (nothing leaks)", async () => {
    const other = await t.user();
    const theirs = await connection({ name: 'Their Sim' }, other);
    await refused([{ countries: ['GB'], connections: [theirs.uuid] }], 'routes.0.connections.0', /No such connection/);
  });

  it('refuses a sender that is not one of the senders of each connection listing senders; takes one that is', async () => {
    await refused([{ countries: ['GB'], connections: [twilio.uuid, sim.uuid], sender: 'Other' }], 'routes.0.sender', /\+447700900001/);
    await refused([{ countries: ['GB'], connections: [sim.uuid], sender: '!' }], 'routes.0.sender');
    // The simulator lists no senders: any sender goes through it.
    expect((await put([{ countries: ['GB'], connections: [twilio.uuid, sim.uuid], sender: '+447700900001' }])).statusCode).toBe(200);
    expect((await put([{ countries: ['GB'], connections: [sim.uuid], sender: 'Anything' }])).statusCode).toBe(200);
  });

  it('refuses a connection edit that would drop a sender a route sends from through it (422 naming senders)', async () => {
    const user = await t.user();
    const vonage = await connection({ name: 'Twilio B', provider: 'twilio', credentials: TWILIO, senders: ['+447700900001', 'Acme'] }, user);
    expect((await put([{ countries: ['GB'], connections: [vonage.uuid], sender: 'Acme' }], user)).statusCode).toBe(200);
    const edit = (senders: string[]) => t.request('PUT', `${API}/sms-connections/${vonage.uuid}`, { token: user.token, body: { senders } });
    const refusedEdit = await edit(['+447700900001']);
    expect(refusedEdit.statusCode, refusedEdit.body).toBe(422);
    expect(errorsOf(refusedEdit).senders?.[0]).toMatch(/routes send from Acme/);
    expect((await t.request('GET', `${API}/sms-connections/${vonage.uuid}`, { token: user.token })).json().data.senders).toEqual(['+447700900001', 'Acme']);
    // Keeping the route's sender, or listing none (any sender), is fine.
    expect((await edit(['Acme', '+447700900002'])).statusCode).toBe(200);
    expect((await edit([])).statusCode).toBe(200);
  });

  it('takes a country an earlier rule covers, but refuses a rule after a * rule (it could never match)', async () => {
    expect(
      (
        await put([
          { countries: ['GB'], connections: [sim.uuid] },
          { countries: ['GB', 'IE'], connections: [twilio.uuid] },
        ])
      ).statusCode,
    ).toBe(200);
    await refused(
      [
        { countries: ['*'], connections: [sim.uuid] },
        { countries: ['GB'], connections: [twilio.uuid] },
      ],
      'routes.1',
      /never match/,
    );
  });

  it('refuses more than 200 rules, and a body that is not {routes: [...]}', async () => {
    await refused(
      Array.from({ length: 201 }, () => ({ countries: ['GB'], connections: [sim.uuid] })),
      'routes',
      /200/,
    );
    const response = await t.request('PUT', `${API}/sms-routes`, { token: admin.token, body: { routes: [1] } });
    expect(response.statusCode).toBe(422);
    expect((await t.request('PUT', `${API}/sms-routes`, { token: admin.token, body: {} })).statusCode).toBe(422);
  });
});

describe('access', () => {
  it('refuses editors and viewers (403), and shows each team only its own routes', async () => {
    const sim = await connection({ name: 'Sim access' });
    expect((await put([{ countries: ['DE'], connections: [sim.uuid] }])).statusCode).toBe(200);
    for (const role of ['editor', 'viewer'] as const) {
      const member = await t.user({ team: `Own team of a ${role}` });
      await t.services.users.addToTeam(member.email, 'Routes Co', role);
      const userId = (await t.services.usersRepository.findByEmail(member.email))!.id;
      const teamId = (await t.services.teamsRepository.findByUuid(admin.teamUuid))!.id;
      const { token } = await t.services.tokens.issue(userId, 'personal', role, { teamId });
      expect((await t.request('GET', `${API}/sms-routes`, { token })).statusCode, role).toBe(403);
      expect((await t.request('PUT', `${API}/sms-routes`, { token, body: { routes: [] } })).statusCode, role).toBe(403);
    }
    expect((await get()).json().routes[0].countries).toEqual(['DE']);
    expect((await get(await t.user())).json()).toEqual({ routes: [] });
  });
});

describe('deleting a connection in use (409)', () => {
  const idOf = async (uuid: string) => Number((await t.database.pool.query('SELECT id FROM sms_connections WHERE uuid = $1', [uuid])).rows[0].id);
  const remove = (uuid: string, user = admin) => t.request('DELETE', `${API}/sms-connections/${uuid}`, { token: user.token });

  it('refuses while a route names it, and deletes it once the route is gone', async () => {
    const user = await t.user();
    const sim = await connection({ name: 'Routed' }, user);
    expect((await put([{ countries: ['GB'], connections: [sim.uuid] }], user)).statusCode).toBe(200);
    const response = await remove(sim.uuid, user);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error).toMatchObject({ code: 409, http_code: 409, message: expect.stringMatching(/Routed.*routes/) });
    expect((await t.request('GET', `${API}/sms-connections/${sim.uuid}`, { token: user.token })).statusCode).toBe(200);
    expect((await put([], user)).statusCode).toBe(200);
    expect((await remove(sim.uuid, user)).statusCode).toBe(204);
  });

  it('refuses while a message is still on its way through it (submitted), not once it is delivered', async () => {
    const sim = await connection({ name: 'Carrying' });
    const id = await idOf(sim.uuid);
    const { rows } = await t.database.pool.query(
      `INSERT INTO messages (campaign_id, sequence, phone_number, status, connection_id) VALUES (0, 1, '447700900123', 'submitted', $1) RETURNING id`,
      [id],
    );
    const response = await remove(sim.uuid);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error.message).toMatch(/1 message is still on the way/);
    await t.database.pool.query(`UPDATE messages SET status = 'delivered' WHERE id = $1`, [rows[0].id]);
    expect((await remove(sim.uuid)).statusCode).toBe(204);
  });

  it('refuses while a keyword reply is still on its way through it', async () => {
    const sim = await connection({ name: 'Replying' });
    const id = await idOf(sim.uuid);
    const team = (await t.services.teamsRepository.findByUuid(admin.teamUuid))!.id;
    await t.database.pool.query(
      `INSERT INTO outbound_replies (team_id, to_number, sender, body, status, connection_id) VALUES ($1, '447700900123', 'Acme', 'Hi', 'submitted', $2)`,
      [team, id],
    );
    const response = await remove(sim.uuid);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error.message).toMatch(/keyword reply/);
  });
});

describe('a connection’s price per segment', () => {
  it('is null by default, set on create and edit, and shown', async () => {
    const sim = await connection({ name: 'Priced' });
    expect(sim).toMatchObject({ price_per_segment: null });
    const created = await connection({ name: 'Priced 2', price_per_segment: { GB: 0.035, '*': 0.05 } });
    expect(created).toMatchObject({ price_per_segment: { GB: 0.035, '*': 0.05 } });
    const edited = await t.request('PUT', `${API}/sms-connections/${created.uuid}`, { token: admin.token, body: { price_per_segment: { FR: 0.07123 } } });
    expect(edited.json().data.price_per_segment).toEqual({ FR: 0.07123 });
    const kept = await t.request('PUT', `${API}/sms-connections/${created.uuid}`, { token: admin.token, body: { name: 'Renamed' } });
    expect(kept.json().data.price_per_segment).toEqual({ FR: 0.07123 });
    const cleared = await t.request('PUT', `${API}/sms-connections/${created.uuid}`, { token: admin.token, body: { price_per_segment: null } });
    expect(cleared.json().data.price_per_segment).toBeNull();
  });

  it('refuses a negative price, more than 5 decimals, and a key that is not a country or *', async () => {
    for (const [prices, field] of [
      [{ GB: -1 }, 'price_per_segment.GB'],
      [{ GB: 0.123456 }, 'price_per_segment.GB'],
      [{ GB: '0.1' }, 'price_per_segment.GB'],
      [{ gb: 0.1 }, 'price_per_segment.gb'],
      [{ XX: 0.1 }, 'price_per_segment.XX'],
      [[0.1], 'price_per_segment'],
    ] as const) {
      const response = await t.request('POST', `${API}/sms-connections/`, {
        token: admin.token,
        body: { name: 'Bad price', provider: 'simulator', price_per_segment: prices },
      });
      expect(response.statusCode, JSON.stringify(prices)).toBe(422);
      expect(Object.keys(errorsOf(response)), response.body).toContain(field);
    }
  });
});
