/**
 * `search` on the lists of templates, senders, contact groups, campaigns, keywords and webhooks
 * (docs/api-conventions.md#lists): "contains", ignoring case, on the name (the sender text, the
 * keyword); `%`, `_` and `\` match themselves; the order and pages are those of the whole list; only
 * the caller's team's rows; at most 100 characters.
 *
 * Seen red (each protection removed once, the file run, then put back):
 * - the escaping in `containsPattern` (src/server/db/search.ts): the literal tests failed for all six
 *   lists (`0%` also found "Rate 500 off", `a_b` "Pick axb", `%` every sender and keyword);
 * - `ILIKE` made `LIKE` (search.ts and the templates' search statement): the different-case tests failed for
 *   all six;
 * - the team condition (`newestOfTeam`'s filtered statement in src/server/db/pages.ts, the templates'
 *   SEARCH_PAGE, `c.team_id` in the campaigns' list): the other-team tests failed for all six;
 * - the `.max(SEARCH_MAX)` of `nameSearchQueryOf` (src/shared/contract/common.ts): the 422 tests failed
 *   (200 instead);
 * - the total read from the team's counter row instead of counted among the matches (pages.ts and
 *   the templates' search statement): the 151st-item test failed for the five lists that use them (campaigns
 *   always count), and the other tests of those lists that check `meta.total`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';

// Europe/London: 10:00 local on 1 June 2026; campaigns are sent the day after.
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Search Owner' });
  stranger = await t.user({ team: 'Search Stranger' });
});
afterAll(() => t.close());

async function post(user: TestUser, path: string, body: unknown): Promise<string> {
  const response = await t.request('POST', `/api/2.0/${path}`, { token: user.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid as string;
}

/** A team's first template and group, made once: what its campaigns are made of. */
const campaignParts = new Map<string, Promise<{ template: string; group: string }>>();
function partsOf(user: TestUser) {
  let parts = campaignParts.get(user.token);
  if (!parts) {
    parts = (async () => ({
      template: await post(user, 'templates/', { name: 'Campaign part', body: 'Hello', sender: 'Acme' }),
      group: await post(user, 'contact-groups/', { name: 'Campaign part' }),
    }))();
    campaignParts.set(user.token, parts);
  }
  return parts;
}
async function createCampaign(user: TestUser, name: string, template?: string) {
  const parts = await partsOf(user);
  return post(user, 'campaigns/', {
    name,
    sender: 'Acme',
    scheduled_send_date: '2026-06-02 09:00:00',
    expiry_date: '2026-06-03 09:00:00',
    included_contact_groups: [parts.group],
    excluded_contact_groups: [],
    template_uuid: template ?? parts.template,
    is_draft: true,
  });
}

type Resource = {
  path: string;
  /** The field the search reads. */
  field: string;
  create: (user: TestUser, text: string) => Promise<string>;
  /** 151 rows named `${prefix}001` (the oldest) to `${prefix}151` (the newest), in one statement. */
  bulk: (user: TestUser, prefix: string) => Promise<void>;
  /** Texts made, then each search and what it finds (newest first). */
  literal: { texts: string[]; searches: Array<[string, string[]]> };
};

const FREE_TEXT = {
  texts: ['Rate 50% off', 'Rate 500 off', 'Pick a_b', 'Pick axb', 'Dir C:\\x', 'Dir C:x'],
  searches: [
    ['0%', ['Rate 50% off']],
    ['a_b', ['Pick a_b']],
    ['\\x', ['Dir C:\\x']],
  ] as Array<[string, string[]]>,
};

/** Rows of one team, `n` seconds apart: the same statement shape for every table. */
const bulkInsert = (user: TestUser, table: string, columns: string, values: string, prefix: string) =>
  t.database.pool.query(
    `INSERT INTO ${table} (team_id, ${columns}, created_at, updated_at)
     SELECT team.id, ${values}, timestamptz '2020-01-01' + n * interval '1 second', timestamptz '2020-01-01' + n * interval '1 second'
       FROM generate_series(1, 151) AS n, (SELECT id FROM teams WHERE uuid = $1) AS team`,
    [user.teamUuid, prefix],
  );
const numbered = `$2 || lpad(n::text, 3, '0')`;

const resources: Resource[] = [
  {
    path: 'templates/',
    field: 'name',
    create: (user, name) => post(user, 'templates/', { name, body: 'Hello', sender: 'Acme' }),
    bulk: (user, prefix) => bulkInsert(user, 'templates', 'name, body, sender', `${numbered}, 'Hello', 'Acme'`, prefix).then(() => undefined),
    literal: FREE_TEXT,
  },
  {
    path: 'senders/',
    field: 'sender',
    create: (user, sender) => post(user, 'senders/', { sender }),
    bulk: (user, prefix) => bulkInsert(user, 'senders', 'sender', numbered, prefix).then(() => undefined),
    // A sender is letters, digits, spaces and . - _ &: `%` finds none of them.
    literal: {
      texts: ['AB_CD', 'ABxCD'],
      searches: [
        ['b_c', ['AB_CD']],
        ['%', []],
      ],
    },
  },
  {
    path: 'contact-groups/',
    field: 'name',
    create: (user, name) => post(user, 'contact-groups/', { name }),
    bulk: (user, prefix) => bulkInsert(user, 'contact_groups', 'name', numbered, prefix).then(() => undefined),
    literal: FREE_TEXT,
  },
  {
    path: 'campaigns/',
    field: 'name',
    create: (user, name) => createCampaign(user, name),
    bulk: async (user, prefix) => {
      const { template } = await partsOf(user);
      await bulkInsert(
        user,
        'campaigns',
        'template_id, name, sender, scheduled_send_date, expiry_date',
        `(SELECT id FROM templates WHERE uuid = '${template}'), ${numbered}, 'Acme', timestamptz '2026-06-02 08:00Z', timestamptz '2026-06-03 08:00Z'`,
        prefix,
      );
    },
    literal: FREE_TEXT,
  },
  {
    path: 'keywords/',
    field: 'keyword',
    create: (user, keyword) => post(user, 'keywords/', { keyword }),
    bulk: (user, prefix) => bulkInsert(user, 'keywords', 'keyword', numbered, prefix).then(() => undefined),
    // A keyword is one word of letters and digits: `%` and `_` find none of them.
    literal: {
      texts: ['Literal1', 'Literal2'],
      searches: [
        ['%', []],
        ['_', []],
      ],
    },
  },
  {
    path: 'webhooks/',
    field: 'name',
    create: (user, name) => post(user, 'webhooks/', { name, url: 'https://example.com/hook' }),
    bulk: (user, prefix) =>
      bulkInsert(user, 'webhooks', 'name, url, secret_encrypted', `${numbered}, 'https://example.com/hook', '\\x00'::bytea`, prefix).then(() => undefined),
    literal: FREE_TEXT,
  },
];

async function search(resource: Resource, user: TestUser, text: string, query = '') {
  const response = await t.request('GET', `/api/2.0/${resource.path}?search=${encodeURIComponent(text)}${query}`, { token: user.token });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { data: Array<Record<string, unknown>>; meta: { total: number; last_page: number } };
  return { texts: body.data.map((item) => item[resource.field]), meta: body.meta };
}

// Keywords are unique across the service: every text below is the resource's own.
describe.each(resources.map((resource) => [resource.path, resource] as const))('GET /%s?search=', (_path, resource) => {
  const tag = resource.path.slice(0, 2).toUpperCase();

  it('finds the items whose text contains the search in the middle, in another case, newest first', async () => {
    await resource.create(owner, `${tag}Peach1`);
    await resource.create(owner, `${tag}Plum2`);
    await resource.create(owner, `${tag}aPEACh3`);
    expect((await search(resource, owner, 'eACH1')).texts).toEqual([`${tag}Peach1`]);
    const both = await search(resource, owner, 'peac');
    expect(both.texts).toEqual([`${tag}aPEACh3`, `${tag}Peach1`]);
    expect(both.meta.total).toBe(2);
  });

  it('matches %, _ and \\ literally', async () => {
    for (const text of resource.literal.texts) await resource.create(owner, text);
    for (const [text, expected] of resource.literal.searches) expect((await search(resource, owner, text)).texts, text).toEqual(expected);
  });

  it('finds the 151st item, beyond the first page of 100, and keeps the pages of the whole list', async () => {
    const prefix = `${tag}Bulk`;
    await resource.bulk(owner, prefix);
    const oldest = await search(resource, owner, `${prefix}001`.toLowerCase());
    expect(oldest.texts).toEqual([`${prefix}001`]);
    const first = await search(resource, owner, prefix, '&per_page=100');
    expect(first.meta).toMatchObject({ total: 151, last_page: 2 });
    expect(first.texts[0]).toBe(`${prefix}151`);
    const second = await search(resource, owner, prefix, '&per_page=100&page=2');
    expect(second.texts).toHaveLength(51);
    expect(second.texts.at(-1)).toBe(`${prefix}001`);
    const past = await search(resource, owner, prefix, '&per_page=100&page=3');
    expect(past.texts).toEqual([]);
    expect(past.meta.total).toBe(151);
  });

  it("never finds another team's items", async () => {
    await resource.create(owner, `${tag}Hidden1`);
    await resource.create(stranger, `${tag}Hidden2`);
    expect((await search(resource, stranger, 'hidden')).texts).toEqual([`${tag}Hidden2`]);
    expect((await search(resource, owner, 'hidden')).texts).toEqual([`${tag}Hidden1`]);
    // The 151 rows of the test above are the owner's.
    expect((await search(resource, stranger, `${tag}Bulk`)).meta.total).toBe(0);
  });

  it('refuses a search longer than 100 characters with 422 in the house shape', async () => {
    expect((await search(resource, owner, 'x'.repeat(100))).meta.total).toBe(0);
    const response = await t.request('GET', `/api/2.0/${resource.path}?search=${'x'.repeat(101)}`, { token: owner.token });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: {
        code: 422,
        http_code: 422,
        message: 'The given data was invalid.',
        errors: { search: ['The search may not be greater than 100 characters.'] },
        request_id: expect.any(String),
      },
    });
  });

  it('answers the whole list when the search is empty or omitted', async () => {
    const all = await t.request('GET', `/api/2.0/${resource.path}?per_page=100`, { token: owner.token });
    const empty = await t.request('GET', `/api/2.0/${resource.path}?per_page=100&search=`, { token: owner.token });
    expect(empty.json().data).toEqual(all.json().data);
    expect(empty.json().meta.total).toBe(all.json().meta.total);
  });
});

describe('GET /campaigns/?search= with the other filters', () => {
  it('combines with template_uuid and status', async () => {
    const other = await post(owner, 'templates/', { name: 'Another part', body: 'Hello', sender: 'Acme' });
    await createCampaign(owner, 'Combined kiwi one');
    await createCampaign(owner, 'Combined kiwi two', other);
    const campaigns = resources.find((resource) => resource.path === 'campaigns/')!;
    expect((await search(campaigns, owner, 'KIWI')).texts).toEqual(['Combined kiwi two', 'Combined kiwi one']);
    expect((await search(campaigns, owner, 'KIWI', `&template_uuid=${other}`)).texts).toEqual(['Combined kiwi two']);
    expect((await search(campaigns, owner, 'KIWI', '&status=2')).texts).toEqual([]);
    expect((await search(campaigns, owner, 'KIWI', '&status=0&include_tests=true')).meta.total).toBe(2);
  });
});
