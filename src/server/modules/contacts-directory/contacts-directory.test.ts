/**
 * Contacts across the team (issue 20, point 4): search, one number's records, its export and its
 * erasure. What is checked is what a client reads over the API, the rows left in PostgreSQL after an
 * erasure, and the messages a counting gateway received.
 *
 * Seen red (each protection removed once, the file run, then put back):
 * - team scoping: with `g.team_id = …` dropped from the search's `matching` in the repository, the
 *   second team counted A's numbers and found A's group uuids ("another team's contacts" failed);
 * - the erasure's replacement: with the messages' `phone_number = ${token}` set back to the number in
 *   `anonymise`, "the number appears nowhere" found the number in A's messages; with a reply's text
 *   left as it was (`body = ''` dropped), the erased reply still had its text;
 * - number formats and accents (issue 32): with the digits searched as typed, "07700 900402" found
 *   nothing; with `containsText` instead of `containsFoldedText`, "chloe" found nothing;
 * - the audit without the number: without `auditBefore: false` on the DELETE route (when the HTTP
 *   layer read each resource before a change), the audit trail read the contact before erasing it and
 *   the erasure's audit event held the number; the erasure's service now records no "before".
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { createSimulatorGateway } from '../../gateways/sms/simulator';
import type { OutgoingSms } from '../../gateways/sms/sms-gateway';
import { countingGateway } from '../../testing/counting-gateway';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const API = '/api/2.0';
const ADA = '447700900401';
const BO = '447700900402';
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let other: TestUser;
let editorToken: string;
let viewerToken: string;
let customers: string;
let vip: string;
let otherGroup: string;
let campaign: string;
let template: string;
/** Every message handed to the gateway, as the carrier received it. */
const handedOver: OutgoingSms[] = [];
let engine: ReturnType<typeof createEngine>;

const call = (user: TestUser | string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  t.request(method, `${API}${url}`, { token: typeof user === 'string' ? user : user.token, body });
const created = async (user: TestUser, url: string, body: unknown) => {
  const response = await call(user, 'POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const newGroup = async (
  user: TestUser,
  name: string,
  contacts: Array<{ phone_number: string; custom_fields?: Record<string, string> }>,
  headers: string[] = [],
) => {
  const uuid = (await created(user, '/contact-groups/', { name, headers })).uuid as string;
  const added = await call(user, 'PUT', `/contact-groups/${uuid}/add-contacts`, { contacts });
  expect(added.statusCode, added.body).toBe(200);
  return uuid;
};
const at = (ms: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(clock.now().getTime() + ms));
/** A campaign of `user` to `group`, due a minute from now; the clock moves there and the engine sends it (and its receipts). */
const sendCampaign = async (user: TestUser, name: string, group: string, templateUuid: string) => {
  clock.advance(10 * 60_000);
  const uuid = (
    await created(user, '/campaigns/', {
      name,
      sender: 'Acme',
      scheduled_send_date: at(60_000),
      expiry_date: at(3_600_000),
      included_contact_groups: [group],
      excluded_contact_groups: [],
      template_uuid: templateUuid,
    })
  ).uuid as string;
  clock.advance(60_000);
  await engine.tick();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await engine.flushReceipts();
  clock.advance(60_000);
  return uuid;
};
const path = (number: string) => `/contacts/${encodeURIComponent(number)}`;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Alpha Co' });
  other = await t.user({ team: 'Bravo Co' });
  const teamId = (await t.services.teamsRepository.findByUuid(owner.teamUuid))!.id;
  const tokenOf = async (role: 'editor' | 'viewer') => {
    const member = await t.user();
    await t.services.users.addToTeam(member.email, 'Alpha Co', role);
    const userId = (await t.services.usersRepository.findByEmail(member.email))!.id;
    return (await t.services.tokens.issue(userId, 'personal', role, { teamId })).token;
  };
  editorToken = await tokenOf('editor');
  viewerToken = await tokenOf('viewer');
  engine = createEngine({
    store: createEngineStore(t.database.db),
    gateway: (() => {
      const gateway = countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }));
      return { ...gateway, submit: (batch, options) => (handedOver.push(...batch), gateway.submit(batch, options)) };
    })(),
    clock,
    options: { tickMs: 1000, batchSize: 50, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 1 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });

  template = (await created(owner, '/templates/', { name: 'Sale', body: 'Hi {{first_name}}: ::Shop::', sender: 'Acme' })).uuid;
  const domain = (await call(owner, 'GET', '/vanity-domains/')).json().data[0].uuid;
  await created(owner, '/links/', { template_uuid: template, vanity_domain_uuid: domain, name: 'Shop', destination: 'https://shop.example.com/' });
  customers = await newGroup(
    owner,
    'Customers',
    [
      { phone_number: '07700900401', custom_fields: { first_name: 'Ada', city: 'Leeds' } },
      { phone_number: '07700900402', custom_fields: { first_name: 'Bo', city: 'York' } },
      { phone_number: '07700900403', custom_fields: { first_name: 'Cy 50%_off', city: 'Chloé-sur-Mer' } },
    ],
    ['first_name', 'city'],
  );
  vip = await newGroup(owner, 'VIP', [{ phone_number: '+44 7700 900401', custom_fields: { first_name: 'Ada' } }], ['first_name']);

  // The second team holds the same number, and sends to it too.
  const otherTemplate = (await created(other, '/templates/', { name: 'Theirs', body: 'Hello {{first_name}}', sender: 'Bravo' })).uuid;
  otherGroup = await newGroup(
    other,
    'Bravo list',
    [
      { phone_number: '07700900401', custom_fields: { first_name: 'Ada at Bravo' } },
      { phone_number: '07700900499', custom_fields: { first_name: 'Zed' } },
    ],
    ['first_name'],
  );
  await sendCampaign(other, 'Bravo sale', otherGroup, otherTemplate);

  campaign = await sendCampaign(owner, 'Summer sale', customers, template);
  const toAda = handedOver.find((sms) => sms.to === ADA && sms.body.startsWith('Hi Ada'))!;
  const code = /\/l\/([0-9A-Za-z]+)$/.exec(toAda.body)![1];
  const click = await t.app.inject({ method: 'GET', url: `/l/${code}`, headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' } });
  expect(click.statusCode).toBe(302);
  expect((await call(owner, 'POST', '/inbound-messages/', { from: '07700900401', body: 'Hello there' })).statusCode).toBe(201);
});
afterAll(() => t.close());

describe('GET /contacts', () => {
  it("lists each of the team's numbers once, with its groups, across default_optouts too", async () => {
    const page = (await call(owner, 'GET', '/contacts')).json();
    expect(page.meta.total).toBe(3);
    expect(page.data[0]).toEqual({
      phone_number: ADA,
      groups: [
        { uuid: customers, name: 'Customers' },
        { uuid: vip, name: 'VIP' },
      ],
    });
  });

  it('finds a number by the digits it contains, whatever the spacing, and a custom field by its text (ignoring case, % literal)', async () => {
    const numbers = async (search: string) =>
      (await call(owner, 'GET', `/contacts?search=${encodeURIComponent(search)}`)).json().data.map((c: { phone_number: string }) => c.phone_number);
    expect(await numbers('+44 (7700) 900-402')).toEqual([BO]);
    expect(await numbers('900')).toEqual([ADA, BO, '447700900403']);
    expect(await numbers('LEEDS')).toEqual([ADA]);
    expect(await numbers('%')).toEqual(['447700900403']);
    expect(await numbers('50%_')).toEqual(['447700900403']);
    expect(await numbers('nobody')).toEqual([]);
    expect(await numbers('')).toHaveLength(3);
  });

  it('finds a number in any national or international format, and text without its accents (issue 32, point 8)', async () => {
    const numbers = async (search: string) =>
      (await call(owner, 'GET', `/contacts?search=${encodeURIComponent(search)}`)).json().data.map((c: { phone_number: string }) => c.phone_number);
    for (const written of ['07700 900402', '07700900402', '+44 7700 900402', '0044 7700 900402', "'+447700900402", '(07700) 900-402'])
      expect(await numbers(written), written).toEqual([BO]);
    // Part of a national number: its leading 0 is the national prefix, not a digit of the stored number.
    expect(await numbers('07700 90040')).toEqual([ADA, BO, '447700900403']);
    expect(await numbers('chloe')).toEqual(['447700900403']);
    expect(await numbers('CHLOÉ')).toEqual(['447700900403']);
    // Decomposed (as macOS writes it): e + a combining accent.
    expect(await numbers('Chloe\u0301')).toEqual(['447700900403']);
  });

  it('pages with the house envelope', async () => {
    const first = (await call(owner, 'GET', '/contacts?per_page=2')).json();
    expect(first.data.map((c: { phone_number: string }) => c.phone_number)).toEqual([ADA, BO]);
    expect(first.meta).toMatchObject({ current_page: 1, last_page: 2, total: 3, from: 1, to: 2 });
    expect(first.links.next).toBe('http://herald.test/api/2.0/contacts?page=2&per_page=2');
    const second = (await call(owner, 'GET', '/contacts?per_page=2&page=2')).json();
    expect(second.data.map((c: { phone_number: string }) => c.phone_number)).toEqual(['447700900403']);
  });

  it("never lists another team's contacts", async () => {
    const theirs = (await call(other, 'GET', '/contacts?per_page=100')).json();
    expect(theirs.meta.total).toBe(2);
    expect(theirs.data).toEqual([
      { phone_number: ADA, groups: [{ uuid: otherGroup, name: 'Bravo list' }] },
      { phone_number: '447700900499', groups: [{ uuid: otherGroup, name: 'Bravo list' }] },
    ]);
    expect((await call(other, 'GET', '/contacts?search=Leeds')).json().meta.total).toBe(0);
    expect((await call(other, 'GET', '/contacts?search=402')).json().meta.total).toBe(0);
  });

  it('refuses a search too long or that cannot be stored (422 naming search)', async () => {
    for (const search of ['x'.repeat(101), 'a\u0000b']) {
      const response = await call(viewerToken, 'GET', `/contacts?search=${encodeURIComponent(search)}`);
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().error.errors)).toEqual(['search']);
    }
  });
});

describe('GET /contacts/{phone_number} and its export', () => {
  it('shows the groups with their fields, the messages, clicks and inbound messages of the team, in any spelling of the number', async () => {
    const response = await call(viewerToken, 'GET', path('07700 900401'));
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json().data;
    expect(detail.phone_number).toBe(ADA);
    expect(detail.opted_out).toBe(false);
    expect(detail.groups).toEqual([
      { uuid: customers, name: 'Customers', custom_fields: { first_name: 'Ada', city: 'Leeds' }, added_at: expect.any(String) },
      { uuid: vip, name: 'VIP', custom_fields: { first_name: 'Ada' }, added_at: expect.any(String) },
    ]);
    expect(detail.messages.total).toBe(1);
    expect(detail.messages.items[0]).toMatchObject({ campaign: { uuid: campaign, name: 'Summer sale' }, status: 'delivered' });
    expect(detail.messages.items[0].sent_at).not.toBe('');
    expect(detail.clicks).toEqual({
      total: 1,
      items: [{ campaign: { uuid: campaign, name: 'Summer sale' }, link_name: 'Shop', clicked_at: expect.any(String), is_bot: false }],
    });
    expect(detail.inbound_messages.total).toBe(1);
    expect(detail.inbound_messages.items[0]).toMatchObject({ body: 'Hello there', keyword: null, opted_out: false });
    expect(detail.opt_out_events).toEqual({ total: 0, items: [] });
    // Bravo's message to the same number is not A's.
    expect(JSON.stringify(detail)).not.toContain('Bravo');
  });

  it('exports everything, complete, as a download (admins only)', async () => {
    const response = await call(owner, 'GET', `${path('+447700900401')}/export`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="contact-${ADA}.json"`);
    const document = response.json().data;
    expect(document.messages).toEqual([
      expect.objectContaining({ body: expect.stringMatching(/^Hi Ada: /), custom_fields: { first_name: 'Ada', city: 'Leeds' } }),
    ]);
    expect(document.clicks[0].user_agent).toContain('iPhone');
    expect(document.inbound_messages.map((m: { body: string }) => m.body)).toEqual(['Hello there']);
    expect(document.groups).toHaveLength(2);
    expect((await call(viewerToken, 'GET', `${path(ADA)}/export`)).statusCode).toBe(403);
    expect((await call(editorToken, 'GET', `${path(ADA)}/export`)).statusCode).toBe(403);
  });

  it('is 404 for a number the team holds nothing about, one that cannot be read, and for another team', async () => {
    for (const number of ['07700900999', 'not-a-number']) expect((await call(owner, 'GET', path(number))).statusCode).toBe(404);
    for (const url of [path(BO), `${path(BO)}/export`]) {
      const response = await call(other, 'GET', url);
      expect(response.statusCode, response.body).toBe(404);
    }
    // The number both teams hold: Bravo sees only its own.
    const theirs = (await call(other, 'GET', path(ADA))).json().data;
    expect(theirs.groups.map((g: { uuid: string }) => g.uuid)).toEqual([otherGroup]);
    expect(theirs.messages.items.map((m: { campaign: { name: string } }) => m.campaign.name)).toEqual(['Bravo sale']);
    expect(theirs.clicks.total + theirs.inbound_messages.total).toBe(0);
  });

  it('answers over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${API}`;
    const headers = { authorization: `Bearer ${owner.token}`, accept: 'application/json' };
    const search = await fetch(`${base}/contacts?search=${encodeURIComponent('+44 7700 900402')}`, { headers });
    expect(search.status).toBe(200);
    expect((await search.json()).data.map((c: { phone_number: string }) => c.phone_number)).toEqual([BO]);
    const exported = await fetch(`${base}/contacts/${encodeURIComponent('+44 7700 900402')}/export`, { headers });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="contact-${BO}.json"`);
    expect((await exported.json()).data.phone_number).toBe(BO);
  });
});

describe('DELETE /contacts/{phone_number}', () => {
  const count = async (statement: string, parameters: unknown[]) => Number((await t.database.pool.query(statement, parameters)).rows[0].n);
  const teamIdOf = async (user: TestUser) => (await t.services.teamsRepository.findByUuid(user.teamUuid))!.id;

  it('is refused to a viewer and an editor (403), and while a reply to the number waits (409); nothing changes', async () => {
    // STOP: the number opts out, and a confirmation is queued for it.
    expect((await call(owner, 'POST', '/inbound-messages/', { from: ADA, body: 'STOP' })).json().data.opted_out).toBe(true);
    for (const token of [viewerToken, editorToken]) expect((await call(token, 'DELETE', path(ADA))).statusCode).toBe(403);
    const waiting = await call(owner, 'DELETE', path(ADA));
    expect(waiting.statusCode, waiting.body).toBe(409);
    expect((await call(owner, 'GET', path(ADA))).json().data.groups).toHaveLength(3);
    await engine.tick(); // the confirmation goes
  });

  it('erases the number from the team: nowhere in its rows, counts and reports unchanged, the opt-out kept, the audit without the number', async () => {
    const team = await teamIdOf(owner);
    const summary = (await call(owner, 'GET', `/campaigns/${campaign}/summary`)).json().data;
    const reports = async () =>
      Object.fromEntries(
        await Promise.all(
          ['delivery', 'recipient', 'sent', 'clicks'].map(async (type) => [
            type,
            (await call(owner, 'GET', `/reporting/${campaign}/${type}`)).json().meta.total,
          ]),
        ),
      );
    const reportsBefore = await reports();
    const groupsBefore = (await call(owner, 'GET', '/contact-groups/?per_page=100')).json().data;
    const bravoDetailBefore = (await call(other, 'GET', path(ADA))).json().data;

    const response = await call(owner, 'DELETE', path('07700 900401'));
    expect(response.statusCode, response.body).toBe(200);
    const erasure = response.json().data;
    expect(erasure).toEqual({
      erased_as: expect.stringMatching(/^erased-[0-9a-f]{16}$/),
      groups_left: 2,
      messages_anonymised: 1,
      clicks_anonymised: 1,
      inbound_anonymised: 2,
      replies_anonymised: 1,
      flow_runs_anonymised: 0,
      opt_out_events_anonymised: 1,
      kept_as_opt_out: true,
    });

    // Nowhere in the team's rows that held it (only default_optouts keeps it, bare).
    const ofTeam = [ADA, team];
    // A reply's text goes with the number (a member's or a flow's may name the person).
    expect(await count(`SELECT count(*) AS n FROM outbound_replies WHERE team_id = $1 AND to_number = $2 AND body <> ''`, [team, erasure.erased_as])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM outbound_replies WHERE team_id = $1 AND to_number = $2`, [team, erasure.erased_as])).toBe(1);
    expect(
      await count(
        `SELECT count(*) AS n FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id WHERE c.phone_number = $1 AND g.team_id = $2 AND g.system_role IS NULL`,
        ofTeam,
      ),
    ).toBe(0);
    expect(
      (
        await t.database.pool.query(
          `SELECT c.custom_fields FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id WHERE c.phone_number = $1 AND g.team_id = $2`,
          ofTeam,
        )
      ).rows,
    ).toEqual([{ custom_fields: {} }]);
    expect(
      await count(`SELECT count(*) AS n FROM messages m JOIN campaigns k ON k.id = m.campaign_id WHERE m.phone_number = $1 AND k.team_id = $2`, ofTeam),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*) AS n FROM messages m JOIN campaigns k ON k.id = m.campaign_id WHERE k.team_id = $2 AND (m.body LIKE '%' || $1 || '%' OR m.body LIKE 'Hi Ada%' OR m.custom_fields::text LIKE '%Ada%')`,
        ofTeam,
      ),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM inbound_messages WHERE from_number = $1 AND team_id = $2`, ofTeam)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM outbound_replies WHERE to_number = $1 AND team_id = $2`, ofTeam)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM opt_out_events WHERE phone_number = $1 AND team_id = $2`, ofTeam)).toBe(0);
    expect(
      await count(
        `SELECT count(*) AS n FROM campaign_test_recipients r JOIN campaigns k ON k.id = r.campaign_id WHERE r.phone_number = $1 AND k.team_id = $2`,
        ofTeam,
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*) AS n FROM link_clicks l JOIN short_links s ON s.code = l.code JOIN messages m ON m.id = s.message_id JOIN campaigns k ON k.id = m.campaign_id
          WHERE k.team_id = $1 AND (l.ip IS NOT NULL OR l.user_agent IS NOT NULL)`,
        [team],
      ),
    ).toBe(0);
    // The token stands in for it, one token for the whole erasure.
    const token = [erasure.erased_as, team];
    expect(
      await count(`SELECT count(*) AS n FROM messages m JOIN campaigns k ON k.id = m.campaign_id WHERE m.phone_number = $1 AND k.team_id = $2`, token),
    ).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM inbound_messages WHERE from_number = $1 AND team_id = $2`, token)).toBe(2);
    expect(await count(`SELECT count(*) AS n FROM opt_out_events WHERE phone_number = $1 AND team_id = $2`, token)).toBe(1);

    // Counts and reports as they were; the groups lost one contact each.
    expect((await call(owner, 'GET', `/campaigns/${campaign}/summary`)).json().data).toEqual(summary);
    expect(await reports()).toEqual(reportsBefore);
    const counts = (groups: Array<{ uuid: string; number_of_contacts: number }>) => Object.fromEntries(groups.map((g) => [g.uuid, g.number_of_contacts]));
    const groupsAfter = counts((await call(owner, 'GET', '/contact-groups/?per_page=100')).json().data);
    expect(groupsAfter[customers]).toBe(counts(groupsBefore)[customers]! - 1);
    expect(groupsAfter[vip]).toBe(0);

    // The other team's rows with the same number are untouched.
    expect((await call(other, 'GET', path(ADA))).json().data).toEqual(bravoDetailBefore);
    expect(
      await count(`SELECT count(*) AS n FROM messages m JOIN campaigns k ON k.id = m.campaign_id WHERE m.phone_number = $1 AND k.team_id = $2`, [
        ADA,
        await teamIdOf(other),
      ]),
    ).toBe(1);

    // The detail now shows only the suppression entry.
    const detail = (await call(owner, 'GET', path(ADA))).json().data;
    expect(detail).toMatchObject({ opted_out: true, groups: [{ name: 'default_optouts', custom_fields: {} }] });
    expect(detail.messages.total + detail.clicks.total + detail.inbound_messages.total + detail.opt_out_events.total).toBe(0);

    // The audit log records the erasure by its token, never the number.
    const events = (await call(owner, 'GET', '/audit-events?action=eraseContact')).json().data;
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0])).toContain(erasure.erased_as);
    expect(JSON.stringify(events[0])).not.toMatch(/7700\s?900\s?401/);
    expect(
      await count(
        `SELECT count(*) AS n FROM audit_events WHERE action = 'eraseContact' AND (changes::text LIKE '%900401%' OR coalesce(resource_uuid::text, '') LIKE '%900401%')`,
        [],
      ),
    ).toBe(0);
  });

  it('keeps an erased opted-out number suppressed: a new campaign to a group holding it again does not send to it', async () => {
    const again = await newGroup(
      owner,
      'Re-imported',
      [{ phone_number: '07700900401', custom_fields: { first_name: 'Ada' } }, { phone_number: '07700900403' }],
      ['first_name'],
    );
    const before = handedOver.length;
    await sendCampaign(owner, 'Autumn sale', again, template);
    const sent = handedOver.slice(before).map((sms) => sms.to);
    expect(sent).toEqual(['447700900403']);
  });

  it('erases a number that was not opted out completely: afterwards the team holds nothing (404)', async () => {
    const response = await call(owner, 'DELETE', path(BO));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ groups_left: 1, messages_anonymised: 1, kept_as_opt_out: false });
    expect((await call(owner, 'GET', path(BO))).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', path(BO))).statusCode).toBe(404);
  });

  it("is 404 for another team's number, and changes nothing of it", async () => {
    const response = await call(other, 'DELETE', path('447700900403'));
    expect(response.statusCode, response.body).toBe(404);
    expect((await call(owner, 'GET', path('447700900403'))).json().data.groups.length).toBeGreaterThan(0);
  });
});
