/**
 * The hosted sign-up page (issue 36, point 3) over a real socket: Herald listens on loopback and
 * every page and post goes through node:http as a browser's would (a form post, a Host header).
 * What is counted is what the database holds after: double opt-in requests, and the confirmation
 * texts queued in `outbound_replies` (kind `confirmation`); for the first sign-up also what the
 * engine's reply sender hands to the carrier (a counting gateway).
 *
 * Seen red, each with its protection removed: the honeypot check in the service (the bot's post
 * opened a request and queued a text), the address's rate limit (the sixth post was a 303, not
 * 429), `escapeHtml` (the heading's `<script>` came through as a tag), the link-domain clause of
 * `findPublic` (another team's page was served on this team's domain), the form token's minimum fill
 * time (a post at once opened a request), the resend window of `requestOptIn` (the repeat queued
 * a second text), the number's rate limit (the fourth post was a 303), and the API's slug conflict
 * (a 500 instead of 409).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { createSimulatorGateway } from '../../gateways/sms/simulator';
import { countingGateway } from '../../testing/counting-gateway';
import { confirmationText } from '../consent/consent.repository';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T10:00:00Z');
let t: TestApp;
let owner: TestUser;
let port: number;
let groupUuid: string;
let teamName: string;
const SLUG = 'acme-texts';
// The engine's reply sender, ticked by hand: what reaches the carrier is counted at its gateway.
const gateway = countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }));
let engine: ReturnType<typeof createEngine>;

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request over the socket, as a browser sends it (the Host header may name a link domain). */
function call(method: 'GET' | 'POST', path: string, options: { host?: string; form?: Record<string, string> } = {}): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: options.host ?? `127.0.0.1:${port}`,
          accept: 'text/html',
          'user-agent': 'Mozilla/5.0 (signup test)',
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Loads the form (its token), lets a person's few seconds pass, and posts it. */
async function signUp(fields: Record<string, string>, options: { slug?: string; host?: string } = {}): Promise<Answer> {
  const slug = options.slug ?? SLUG;
  const page = await call('GET', `/join/${slug}`, { host: options.host });
  expect(page.status).toBe(200);
  const token = /name="form_token" value="([^"]+)"/.exec(page.body)![1]!;
  clock.advance(5_000);
  return call('POST', `/join/${slug}`, { host: options.host, form: { country: 'GB', website: '', form_token: token, ...fields } });
}

const count = async (statement: ReturnType<typeof sql>) => Number((await t.database.db.execute(statement)).rows[0]!.n);
const pendingOf = (number: string) => count(sql`SELECT count(*) AS n FROM opt_in_requests WHERE phone_number = ${number} AND state = 'pending'`);
const confirmationsTo = (number: string) => count(sql`SELECT count(*) AS n FROM outbound_replies WHERE to_number = ${number} AND kind = 'confirmation'`);

async function setUpTeam(user: TestUser, page: Record<string, unknown>) {
  const group = await t.request('POST', '/api/2.0/contact-groups/', { token: user.token, body: { name: `Sign-ups ${randomUUID().slice(0, 6)}` } });
  expect(group.statusCode).toBe(201);
  const saved = await t.request('PUT', '/api/2.0/team/signup-page', {
    token: user.token,
    body: {
      enabled: true,
      heading: 'Texts from Acme',
      consent_text: 'I agree to receive recurring marketing texts from Acme at this number.',
      frequency_text: 'Up to 4 msgs/week',
      group_uuid: group.json().data.uuid,
      ...page,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { groupUuid: group.json().data.uuid as string, page: saved.json().data };
}

beforeAll(async () => {
  t = await createTestApp({ SIGNUP_RATE_LIMIT_PER_MINUTE: '5' }, { clock });
  teamName = `Acme ${randomUUID().slice(0, 6)}`;
  owner = await t.user({ team: teamName });
  expect((await t.request('PUT', '/api/2.0/team/settings', { token: owner.token, body: { default_country: 'US' } })).statusCode).toBe(200);
  groupUuid = (await setUpTeam(owner, { slug: SLUG, ask_first_name: true })).groupUuid;
  engine = createEngine({
    store: createEngineStore(t.database.db),
    gateway,
    clock,
    options: { tickMs: 1000, batchSize: 50, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 1 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());
// Each test starts at the start of a fresh minute of the rate limits.
beforeEach(() => clock.set(new Date(Math.ceil(clock.now().getTime() / 60_000) * 60_000 + 60_000)));

describe('GET /join/{slug}', () => {
  it("renders the team's texts, the country selector at the team's country, and a honeypot no person meets", async () => {
    const page = await call('GET', `/join/${SLUG}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('<h1>Texts from Acme</h1>');
    expect(page.body).toContain('I agree to receive recurring marketing texts from Acme at this number.');
    expect(page.body).toContain('Up to 4 msgs/week');
    expect(page.body).toContain('Msg &amp; data rates may apply; reply STOP to opt out.');
    expect(page.body).toMatch(/<option value="US" selected>United States \(\+1\)<\/option>/);
    expect(page.body.match(/ selected>/g)).toHaveLength(1);
    expect(page.body).toContain('<label for="first_name">');
    expect(page.body).toMatch(/<div class="hp" aria-hidden="true">[\s\S]*<input id="website" name="website" type="text" tabindex="-1" autocomplete="off"/);
    // No script anywhere, and a policy that would refuse one.
    expect(page.body).not.toMatch(/<script/i);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toContain('script-src');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 404 for an unknown slug, a malformed one, and a page switched off', async () => {
    for (const path of ['/join/no-such-page', '/join/NOT..valid', `/join/${'x'.repeat(60)}`]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toContain('<h1>Page not found</h1>');
    }
    const other = await t.user();
    await setUpTeam(other, { slug: 'switched-off', enabled: false });
    expect((await call('GET', '/join/switched-off')).status).toBe(404);
    expect((await call('POST', '/join/switched-off', { form: { phone_number: '2015550123' } })).status).toBe(404);
  });

  it("escapes HTML in the team's texts", async () => {
    const other = await t.user({ team: `<b>Evil</b> & Co ${randomUUID().slice(0, 4)}` });
    await setUpTeam(other, {
      slug: 'evil-co',
      heading: '<script>alert(1)</script>',
      consent_text: '"><img src=x onerror=alert(2)>',
      frequency_text: "' onmouseover='alert(3)",
    });
    const page = await call('GET', '/join/evil-co');
    expect(page.status).toBe(200);
    expect(page.body).not.toMatch(/<script|<img|<b>/i);
    expect(page.body).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(page.body).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(page.body).toContain('&#39; onmouseover=&#39;alert(3)');
    expect(page.body).toContain('&lt;b&gt;Evil&lt;/b&gt; &amp; Co');
  });
});

describe('POST /join/{slug}', () => {
  it('opens one pending request and queues one confirmation; a repeat within 10 minutes texts nothing more', async () => {
    const number = '12015550101';
    const posted = await signUp({ phone_number: '(201) 555-0101', country: 'US', first_name: 'Ada' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`/join/${SLUG}/thanks`);
    const thanks = await call('GET', posted.headers.location!);
    expect(thanks.status).toBe(200);
    expect(thanks.body).toContain('Check your phone: reply YES to confirm');

    expect(await pendingOf(number)).toBe(1);
    expect(await confirmationsTo(number)).toBe(1);
    const request = (
      await t.database.db.execute(sql`
        SELECT r.source, r.text_shown, r.evidence, r.fields, g.uuid AS group_uuid
          FROM opt_in_requests r JOIN contact_groups g ON g.id = r.group_id WHERE r.phone_number = ${number}`)
    ).rows[0]!;
    expect(request).toEqual({
      source: 'form',
      text_shown:
        'I agree to receive recurring marketing texts from Acme at this number.\nUp to 4 msgs/week\nMsg & data rates may apply; reply STOP to opt out.',
      evidence: { ip: '127.0.0.1', user_agent: 'Mozilla/5.0 (signup test)', page_slug: SLUG },
      fields: { first_name: 'Ada' },
      group_uuid: groupUuid,
    });
    const reply = (await t.database.db.execute(sql`SELECT sender, body, status FROM outbound_replies WHERE to_number = ${number}`)).rows[0];
    expect(reply).toEqual({ sender: '88440', body: confirmationText(teamName), status: 'queued' });
    await engine.tick();
    expect(gateway.ledger.bodiesByNumber.get(number)).toEqual([confirmationText(teamName)]);

    clock.advance(3 * 60_000);
    expect((await signUp({ phone_number: '+1 201 555 0101' })).status).toBe(303);
    expect(await pendingOf(number)).toBe(1);
    expect(await confirmationsTo(number)).toBe(1);
    await engine.tick();
    expect(gateway.ledger.byNumber.get(number)).toBe(1);
  });

  it("joins the page's group with the first name, and records the form's consent, only when the number replies YES", async () => {
    const number = '12015550109';
    expect((await signUp({ phone_number: '2015550109', country: 'US', first_name: 'Grace' })).status).toBe(303);
    const api = (method: 'GET' | 'POST', path: string, body?: unknown) => t.request(method, `/api/2.0${path}`, { token: owner.token, body });
    const members = async () =>
      (await api('GET', `/contact-groups/${groupUuid}/contacts?per_page=100`)).json().data as Array<{
        phone_number: string;
        custom_fields: Record<string, string>;
      }>;
    expect((await members()).map((contact) => contact.phone_number)).not.toContain(number);
    expect((await api('GET', `/contacts/${number}/consent`)).json().data ?? []).toEqual([]);

    clock.advance(60_000);
    const yes = await api('POST', '/inbound-messages/', { from: '+1 201 555 0109', body: 'Yes' });
    expect(yes.statusCode, yes.body).toBe(201);
    expect(yes.json().data.actions.map((action: { type: string }) => action.type)).toEqual(['opt_in_confirmed', 'added_to_group']);
    expect((await members()).find((contact) => contact.phone_number === number)?.custom_fields).toMatchObject({ first_name: 'Grace' });
    const consent = (await api('GET', `/contacts/${number}/consent`)).json().data;
    expect(consent).toEqual([
      expect.objectContaining({
        source: 'form',
        text_shown:
          'I agree to receive recurring marketing texts from Acme at this number.\nUp to 4 msgs/week\nMsg & data rates may apply; reply STOP to opt out.',
        evidence: expect.objectContaining({ ip: '127.0.0.1', user_agent: 'Mozilla/5.0 (signup test)', page_slug: SLUG }),
      }),
    ]);
  });

  it('answers a filled honeypot like a success and records nothing', async () => {
    const number = '12015550102';
    const posted = await signUp({ phone_number: '2015550102', country: 'US', website: 'http://spam.example' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`/join/${SLUG}/thanks`);
    expect(await pendingOf(number)).toBe(0);
    expect(await confirmationsTo(number)).toBe(0);
  });

  it('re-renders the form with the error beside the number, its value kept and escaped', async () => {
    const before = await count(sql`SELECT count(*) AS n FROM outbound_replies`);
    for (const bad of ['', '12', 'call me <b>maybe</b>']) {
      const posted = await signUp({ phone_number: bad, country: 'US' });
      expect(posted.status, bad).toBe(422);
      expect(posted.body).toMatch(/aria-invalid="true" aria-describedby="phone_number-error"/);
      expect(posted.body).toMatch(/<p class="error" id="phone_number-error">Enter (your|a) mobile number/);
      expect(posted.body).toContain('role="alert"');
      expect(posted.body).toMatch(/<option value="US" selected>/);
      expect(posted.body).not.toContain('<b>');
      clock.advance(60_000);
    }
    expect(await count(sql`SELECT count(*) AS n FROM outbound_replies`)).toBe(before);
  });

  it('sends a post made the moment the page loaded, or without a token, back to be posted again', async () => {
    const page = await call('GET', `/join/${SLUG}`);
    const token = /name="form_token" value="([^"]+)"/.exec(page.body)![1]!;
    const tooFast = await call('POST', `/join/${SLUG}`, { form: { country: 'US', phone_number: '2015550103', form_token: token } });
    expect(tooFast.status).toBe(422);
    expect(tooFast.body).toContain('quicker than we expected');
    const noToken = await call('POST', `/join/${SLUG}`, { form: { country: 'US', phone_number: '2015550103' } });
    expect(noToken.status).toBe(422);
    expect(noToken.body).toContain('This form had expired');
    clock.advance(3 * 3_600_000);
    const stale = await call('POST', `/join/${SLUG}`, { form: { country: 'US', phone_number: '2015550103', form_token: token } });
    expect(stale.status).toBe(422);
    expect(await pendingOf('12015550103')).toBe(0);
  });

  it('answers 429 in plain words after SIGNUP_RATE_LIMIT_PER_MINUTE posts from one address', async () => {
    for (let post = 1; post <= 5; post++) expect((await signUp({ phone_number: `201555020${post}`, country: 'US' })).status).toBe(303);
    const over = await signUp({ phone_number: '2015550209', country: 'US' });
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toContain('<h1>Too many attempts</h1>');
    expect(await pendingOf('12015550209')).toBe(0);
    // The next minute the address may post again.
    clock.advance(60_000);
    expect((await signUp({ phone_number: '2015550209', country: 'US' })).status).toBe(303);
    expect(await pendingOf('12015550209')).toBe(1);
  });

  it('answers 429 after SIGNUP_POSTS_PER_NUMBER_PER_MINUTE posts for one number', async () => {
    for (let post = 1; post <= 3; post++) expect((await signUp({ phone_number: '2015550401', country: 'US' })).status).toBe(303);
    expect((await signUp({ phone_number: '2015550401', country: 'US' })).status).toBe(429);
    expect(await confirmationsTo('12015550401')).toBe(1);
  });

  it("takes a post on the team's link domain, and serves no other team's page there", async () => {
    const domain = `go-${randomUUID().slice(0, 6)}.acme.example`;
    expect((await t.request('POST', '/api/2.0/vanity-domains/', { token: owner.token, body: { domain } })).statusCode).toBe(201);
    const posted = await signUp({ phone_number: '2015550301', country: 'US' }, { host: domain });
    expect(posted.status).toBe(303);
    expect(await pendingOf('12015550301')).toBe(1);
    const shown = (await t.request('GET', '/api/2.0/team/signup-page', { token: owner.token })).json().data;
    expect(shown.urls).toEqual([`http://herald.test/join/${SLUG}`, `https://${domain}/join/${SLUG}`]);

    const other = await t.user();
    await setUpTeam(other, { slug: 'other-shop' });
    expect((await call('GET', '/join/other-shop')).status).toBe(200);
    expect((await call('GET', '/join/other-shop', { host: domain })).status).toBe(404);
  });
});

describe('herald_signup_posts_total', () => {
  it('counted each post above by what became of it', async () => {
    const metrics = (await call('GET', '/metrics')).body;
    const posts = (result: string) => Number(new RegExp(`^herald_signup_posts_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    expect(posts('honeypot')).toBe(1);
    expect(posts('renewed')).toBeGreaterThanOrEqual(1);
    expect(posts('requested')).toBeGreaterThanOrEqual(9);
    expect(posts('rate_limited')).toBe(2);
    expect(posts('invalid')).toBeGreaterThanOrEqual(6);
  });
});

describe('GET/PUT /api/2.0/team/signup-page', () => {
  it('names the field of a bad setting (422), refuses a slug another team holds (409), and records each change', async () => {
    const put = (body: Record<string, unknown>, token = owner.token) => t.request('PUT', '/api/2.0/team/signup-page', { token, body });
    const valid = {
      slug: SLUG,
      enabled: true,
      heading: 'Texts from Acme',
      consent_text: 'I agree.',
      frequency_text: 'Up to 4 msgs/week',
      group_uuid: groupUuid,
    };
    for (const [field, value] of [
      ['slug', 'join'],
      ['slug', 'Ab'],
      ['slug', '-acme'],
      ['heading', ''],
      ['consent_text', '   '],
      ['group_uuid', randomUUID()],
    ] as const) {
      const answer = await put({ ...valid, [field]: value });
      expect(answer.statusCode, `${field}=${value}`).toBe(422);
      expect(Object.keys(answer.json().error.errors)).toEqual([field]);
    }
    const { frequency_text: _omitted, ...missing } = valid;
    expect(Object.keys((await put(missing)).json().error.errors)).toEqual(['frequency_text']);

    const taken = await put({ ...valid, slug: 'other-shop' });
    expect(taken.statusCode).toBe(409);

    const changed = await put({ ...valid, heading: 'Acme texts' });
    expect(changed.statusCode).toBe(200);
    const events = (await t.request('GET', '/api/2.0/audit-events?resource_type=signup_page', { token: owner.token })).json().data;
    expect(events[0]).toMatchObject({ action: 'updateSignupPage', changes: { heading: { before: 'Texts from Acme', after: 'Acme texts' } } });
    await put(valid);
  });

  it('lets every member read the page and only admins change it', async () => {
    const editorEmail = `editor-${randomUUID().slice(0, 6)}@herald.test`;
    const created = await t.services.users.create({ email: editorEmail, password: 'correct-horse-battery', teamName, role: 'editor' });
    const { token } = await t.services.tokens.issue(created.userId, 'personal', 'test');
    expect((await t.request('GET', '/api/2.0/team/signup-page', { token })).statusCode).toBe(200);
    expect((await t.request('PUT', '/api/2.0/team/signup-page', { token, body: {} })).statusCode).toBe(403);
    const fresh = await t.user();
    expect((await t.request('GET', '/api/2.0/team/signup-page', { token: fresh.token })).statusCode).toBe(404);
  });
});
