import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { DEMO_CAMPAIGNS, DEMO_DEFAULTS, seedDemo, type DemoSeed } from './demo-seed';

let t: TestApp;
let seed: DemoSeed;

const get = async (url: string, token = seed.token) => {
  const response = await t.request('GET', url, { token });
  expect(response.statusCode).toBe(200);
  return response.json();
};
const campaignNamed = (name: string) => seed.campaigns.find((c) => c.name === name)!;

beforeAll(async () => {
  t = await createTestApp();
  seed = await seedDemo({ services: t.services, db: t.database.db, config: t.config });
}, 120_000);
afterAll(() => t.close());

describe('demo:seed', () => {
  it('makes the demo user, who signs in with the default password into the demo team', async () => {
    const login = await t.request('POST', '/api/2.0/auth/login', { body: { email: DEMO_DEFAULTS.email, password: DEMO_DEFAULTS.password } });
    expect(login.statusCode).toBe(200);
    const me = (await get('/api/2.0/users/me')).data;
    expect(me).toMatchObject({ email: DEMO_DEFAULTS.email, current_team: { uuid: seed.team_uuid, name: 'Demo Shop', role: 'admin' } });
  });

  it('fills contact groups with custom fields, overlapping, and opts a couple of numbers out', async () => {
    const groups: Array<{ uuid: string; name: string; number_of_contacts: number; headers: string[] }> = (await get('/api/2.0/contact-groups/?per_page=100'))
      .data;
    const named = (name: string) => groups.find((g) => g.name === name)!;
    expect(named('VIP customers')).toMatchObject({ number_of_contacts: 120, headers: ['first_name', 'city'] });
    expect(named('Newsletter')).toMatchObject({ number_of_contacts: 250, headers: ['first_name'] });
    expect(named('default_optouts').number_of_contacts).toBe(2);

    const contacts = (await get(`/api/2.0/contact-groups/${named('VIP customers').uuid}/contacts?per_page=100`)).data;
    expect(contacts[0].phone_number).toMatch(/^447700900\d{3}$/);
    expect(Object.keys(contacts[0].custom_fields).sort()).toEqual(['city', 'first_name']);
    const unique = await t.request('POST', '/api/2.0/contact-groups/unique-contacts?per_page=1', {
      token: seed.token,
      body: {
        included_contact_group_uuids: [named('VIP customers').uuid, named('Newsletter').uuid],
        excluded_contact_group_uuids: [named('Staff phones').uuid],
      },
    });
    // 120 VIPs + 190 newsletter-only readers (60 read both), minus 4 staff phones and 2 opt-outs.
    expect(unique.json().meta.total).toBe(304);
  });

  it('sent the weekend sale yesterday: status 2, every receipt in, some failed, links clicked by people and preview bots', async () => {
    const sent = (await get(`/api/2.0/campaigns/${campaignNamed(DEMO_CAMPAIGNS.sent).uuid}`)).data;
    expect(sent.status).toBe(2);
    expect(sent.started_sending_at.slice(0, 10)).toBe(sent.scheduled_send_date.slice(0, 10));
    expect(new Date(sent.finished_sending_at.replace(' ', 'T')).getTime()).toBeLessThan(Date.now() - 3_600_000 * 12);

    const summary = (await get(`/api/2.0/campaigns/${sent.uuid}/summary`)).data;
    expect(summary).toMatchObject({ recipients: 304, queued: 0, submitted: 0, unsent: 0 });
    expect(summary.delivered + summary.failed).toBe(304);
    expect(summary.failed).toBeGreaterThan(0);
    expect(summary.failed).toBeLessThan(40);
    expect(summary.clicks).toBeGreaterThan(50);
    expect(seed.sent_summary).toEqual({ recipients: 304, delivered: summary.delivered, failed: summary.failed, clicks: summary.clicks });

    const { rows } = await t.database.pool.query(
      `SELECT k.device_type, k.is_bot, k.clicked_at, m.finished_at FROM link_clicks k JOIN short_links s ON s.code = k.code JOIN messages m ON m.id = s.message_id
        JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1`,
      [sent.uuid],
    );
    expect(rows.length).toBe(summary.clicks);
    expect(new Set(rows.map((row) => row.device_type))).toEqual(new Set(['mobile', 'desktop', 'bot']));
    expect(rows.every((row) => row.clicked_at > row.finished_at && row.clicked_at < new Date())).toBe(true);
  });

  it('plans a throttled campaign for tomorrow 09:00–17:00 with a lunch pause, and a plain one after it', async () => {
    const throttled = (await get(`/api/2.0/campaigns/${campaignNamed(DEMO_CAMPAIGNS.throttled).uuid}`)).data;
    expect(throttled).toMatchObject({ status: 0, throttled: true, is_locked: false });
    expect(throttled.scheduled_send_date).toMatch(/ 09:00:00$/);
    expect(throttled.scheduled_finish_date).toMatch(/ 17:00:00$/);
    expect(throttled.pauses).toHaveLength(1);
    expect(throttled.pauses[0].start_at).toMatch(/ 12:00:00$/);
    expect(throttled.pauses[0].end_at).toMatch(/ 13:00:00$/);
    const pending = (await get(`/api/2.0/campaigns/${campaignNamed(DEMO_CAMPAIGNS.pending).uuid}`)).data;
    expect(pending).toMatchObject({ status: 0, throttled: false });
  });

  it('adds a JOIN keyword and templates whose tracked links are on the team’s own domain', async () => {
    const keywords = (await get('/api/2.0/keywords/')).data;
    expect(keywords).toEqual([expect.objectContaining({ keyword: 'JOIN', add_contact_to_group: true })]);
    const templates = (await get('/api/2.0/templates/')).data;
    // The campaigns' three and the welcome flow's two.
    expect(templates).toHaveLength(5);
    for (const template of templates) {
      expect(template.body).toContain('{{first_name}}');
      expect(template.links).toHaveLength(1);
      expect(template.body).toContain(`::${template.links[0].name}::`);
    }
  });

  it('shows a newcomer a welcome flow on the keyword, two conversations in the inbox and an enabled sign-up page', async () => {
    const flow = (await get(`/api/2.0/flows/${seed.flow.uuid}`)).data;
    expect(flow).toMatchObject({ name: 'Welcome series', enabled: true, trigger: { type: 'keyword', keyword_uuid: seed.keyword.uuid } });
    expect(flow.steps.map((step: { type: string }) => step.type)).toEqual(['send', 'wait', 'branch']);
    const conversations = (await get('/api/2.0/conversations/')).data;
    expect(conversations).toHaveLength(2);
    expect(conversations.filter((c: { unread: boolean }) => c.unread)).toHaveLength(1);
    const answered = conversations.find((c: { unread: boolean }) => !c.unread);
    const thread = (await get(`/api/2.0/conversations/${answered.phone_number}`)).data;
    expect(thread.map((m: { direction: string; kind: string }) => [m.direction, m.kind]).slice(-2)).toEqual([
      ['inbound', 'inbound'],
      ['outbound', 'inbox_reply'],
    ]);
    const page = (await get('/api/2.0/team/signup-page')).data;
    expect(page).toMatchObject({ slug: seed.signup_page.slug, enabled: true });
    const form = await t.request('GET', `/join/${page.slug}`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Texts from Demo Shop');
  });

  it('run again, reuses what exists and sends nothing twice', async () => {
    const again = await seedDemo({ services: t.services, db: t.database.db, config: t.config });
    expect(again.already_seeded).toBe(true);
    expect(again).not.toHaveProperty('password');
    expect(again.team_uuid).toBe(seed.team_uuid);
    expect(again.campaigns.map((c) => c.uuid)).toEqual(seed.campaigns.map((c) => c.uuid));
    expect(again.sent_summary).toEqual(seed.sent_summary);
    expect((await get('/api/2.0/campaigns/', again.token)).meta.total).toBe(3);
    expect((await get('/api/2.0/contact-groups/?per_page=100', again.token)).meta.total).toBe(4);
    expect(again.flow.uuid).toBe(seed.flow.uuid);
    expect((await get('/api/2.0/flows/', again.token)).meta.total).toBe(1);
    expect((await get('/api/2.0/conversations/', again.token)).meta.total).toBe(2);
  });

  it('refuses to fill a team the user is not in', async () => {
    const other = await t.user({ team: 'Someone Else' });
    expect(other.teamUuid).toBeTruthy();
    await expect(seedDemo({ services: t.services, db: t.database.db, config: t.config }, { team: 'Someone Else' })).rejects.toMatchObject({
      fields: { team: [expect.stringContaining('is not in it')] },
    });
  });
});
