import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

// A list's `total` is the team's counter row (migration 0018), kept by triggers: it must always
// equal the rows a count would find, whatever wrote or removed them.
let t: TestApp;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  other = await t.user();
});
afterAll(() => t.close());

const total = async (path: string, user = owner) => (await t.request('GET', `/api/2.0/${path}?per_page=1`, { token: user.token })).json().meta.total as number;
const counted = async (table: string, user = owner) =>
  Number((await t.database.pool.query(`SELECT count(*) FROM ${table} WHERE team_id = (SELECT id FROM teams WHERE uuid = $1)`, [user.teamUuid])).rows[0].count);

describe('list totals', () => {
  it('count what the team is born with', async () => {
    for (const [path, table] of [
      ['senders/', 'senders'],
      ['contact-groups/', 'contact_groups'],
      ['vanity-domains/', 'vanity_domains'],
      ['templates/', 'templates'],
    ]) {
      expect(await total(path!)).toBe(await counted(table!));
    }
    expect(await total('contact-groups/')).toBe(1); // default_optouts
  });

  it('follow creates and deletes through the API, many at once, for this team only', async () => {
    const made = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: `T${i}`, body: 'Hello', sender: 'Acme' } });
        expect(response.statusCode).toBe(201);
        return response.json().data.uuid as string;
      }),
    );
    expect(await total('templates/')).toBe(20);
    for (const uuid of made.slice(0, 7)) expect((await t.request('DELETE', `/api/2.0/templates/${uuid}`, { token: owner.token })).statusCode).toBe(204);
    expect(await total('templates/')).toBe(13);
    expect(await total('templates/', other)).toBe(0);

    const group = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name: 'Counted' } })).json().data.uuid;
    expect(await total('contact-groups/')).toBe(2);
    expect((await t.request('DELETE', `/api/2.0/contact-groups/${group}`, { token: owner.token })).statusCode).toBe(204);
    expect(await total('contact-groups/')).toBe(1);
  });

  it('follow rows written in bulk, and a page past the end still tells the total', async () => {
    await t.database.pool.query(
      `INSERT INTO templates (team_id, name, body, sender) SELECT (SELECT id FROM teams WHERE uuid = $1), 'Bulk ' || i, 'Hi', 'Acme' FROM generate_series(1, 500) i`,
      [owner.teamUuid],
    );
    expect(await total('templates/')).toBe(513);
    await t.database.pool.query(`DELETE FROM templates WHERE name LIKE 'Bulk %' AND id % 2 = 0`);
    const expected = await counted('templates');
    expect(await total('templates/')).toBe(expected);
    const past = (await t.request('GET', '/api/2.0/templates/?page=999', { token: owner.token })).json();
    expect(past.data).toEqual([]);
    expect(past.meta.total).toBe(expected);
  });

  it('count campaigns, and a status filter counts its own', async () => {
    const template = (await t.request('POST', '/api/2.0/templates/', { token: other.token, body: { name: 'C', body: 'Hello', sender: 'Acme' } })).json().data
      .uuid;
    const group = (await t.request('POST', '/api/2.0/contact-groups/', { token: other.token, body: { name: 'G' } })).json().data.uuid;
    const campaign = (i: number) => ({
      name: `Campaign ${i}`,
      sender: 'Acme',
      scheduled_send_date: '2099-01-01 10:00:00',
      expiry_date: '2099-01-02 10:00:00',
      included_contact_groups: [group],
      excluded_contact_groups: [],
      template_uuid: template,
    });
    for (let i = 0; i < 3; i++) expect((await t.request('POST', '/api/2.0/campaigns/', { token: other.token, body: campaign(i) })).statusCode).toBe(201);
    expect(await total('campaigns/', other)).toBe(3);
    await t.database.pool.query(`UPDATE campaigns SET status = 2 WHERE name = 'Campaign 0'`);
    expect(await total('campaigns/', other)).toBe(3);
    expect((await t.request('GET', '/api/2.0/campaigns/?status=2', { token: other.token })).json().meta.total).toBe(1);
  });
});
