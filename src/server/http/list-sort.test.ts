/**
 * `sort` on the lists (issue 23, point 4): one convention on every list that takes it, read from the
 * served OpenAPI document, so a list that takes `sort` later is checked here with nothing to add.
 *
 * - The document names the lists that take `sort` and, for each, the values as an enum: a field for
 *   ascending order, `-` and the field for descending.
 * - Every value orders the answer by that field of the items (names without regard to case), ties in
 *   the order of creation; without `sort` the list keeps its order, the one the document names.
 * - Any other value, or `sort` given twice, is 422 in the house shape with `errors` keyed by `sort`.
 * - Pages of a sort neither overlap nor skip when every item has the same time (the tiebreak), the
 *   envelope's links keep `sort`, and it combines with `search`.
 *
 * Seen red: with `orderOf` ignoring `sort` (always the default order: every ascending or by-name
 * case failed), with the tiebreak left out of `orderOf` (the same-time pages overlapped), with
 * `pageEnvelope` not keeping `sort` (the links test), and with `sortQueryOf`'s enum made a plain
 * string (the document lost its enums, and unknown values became 500s instead of 422s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_SORT, CAMPAIGN_SORT, SENDER_SORT } from '../../shared/contract';
import { routesOfDocument, type OpenApiDocument } from '../testing/api-routes';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../testing/test-app';

const API = '/api/2.0';
const clock = createTestClock('2026-06-01T09:00:00Z');
const t: TestApp = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock });
afterAll(() => t.close());
const document = (await t.request('GET', `${API}/openapi.json`)).json();

type Parameter = { in: string; name: string; schema?: { enum?: string[] }; description?: string };
/** Every list of the document that takes `sort`, with the values it documents. */
const SORTABLE = routesOfDocument(document as OpenApiDocument, `${API}/`).flatMap((route) => {
  const parameters: Parameter[] = document.paths[route.path][route.method.toLowerCase()].parameters ?? [];
  const sort = parameters.find((parameter) => parameter.in === 'query' && parameter.name === 'sort');
  return sort ? [{ ...route, values: sort.schema?.enum ?? [], description: sort.description ?? '' }] : [];
});

let owner: TestUser;
let group: string;
const paths: Record<string, string> = {};

const post = async (path: string, body: unknown, user = owner) => {
  const response = await t.request('POST', `${API}${path}`, { token: user.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};

// Three of everything, a second apart, named so that case and creation order disagree with the alphabet.
beforeAll(async () => {
  owner = await t.user({ team: 'Sorted' });
  const names = ['charlie', 'Alpha', 'bravo'];
  for (const [i, name] of names.entries()) {
    clock.advance(1000);
    await post('/senders', { sender: `${name.slice(0, 5)}${i}` });
    clock.advance(1000);
    await post('/templates', { name, body: `Hello ${name}`, sender: 'Herald' });
    clock.advance(1000);
    await post('/webhooks', { name, url: 'https://hooks.example.com/in' });
    clock.advance(1000);
    await post('/keywords', { keyword: `${name}sort` });
    clock.advance(1000);
    await post('/tokens', { name });
    clock.advance(1000);
    const uuid = (await post('/contact-groups', { name })).uuid;
    group ??= uuid;
    await t.request('PUT', `${API}/contact-groups/${uuid}/add-contacts`, {
      token: owner.token,
      body: { contacts: ['07700900301', '07700900302', '07700900303'].slice(i).map((phone_number) => ({ phone_number })) },
    });
    clock.advance(1000);
    await post('/segments', { name, match: 'all', conditions: [{ type: 'field', field: 'first_name', op: 'is_not_empty' }] });
    clock.advance(1000);
    await post('/inbound-messages', { from: `4477009004${i}0`, body: `Hello ${i}` });
    const member = await t.user({ email: `${name.toLowerCase()}-${i}@sorted.test` });
    await t.services.users.addToTeam(member.email, 'Sorted', 'viewer');
  }
  const template = (await post('/templates', { name: 'For campaigns', body: 'Hi', sender: 'Herald' })).uuid;
  for (const [i, name] of names.entries()) {
    clock.advance(1000);
    await post('/campaigns', {
      name,
      sender: 'Herald',
      scheduled_send_date: `2026-07-0${3 - i} 09:00:00`,
      expiry_date: '2026-07-09 09:00:00',
      included_contact_groups: [group],
      template_uuid: template,
    });
  }
  const optouts = (await t.request('GET', `${API}/contact-groups?search=default_optouts`, { token: owner.token })).json().data[0].uuid;
  for (const number of ['07700900501', '07700900502', '07700900503']) {
    clock.advance(1000);
    await t.request('PUT', `${API}/contact-groups/${optouts}/add-contacts`, { token: owner.token, body: { contacts: [{ phone_number: number }] } });
  }
  paths.contact_group_uuid = group;
});

const urlOf = (path: string) => path.replace('{contact_group_uuid}', paths.contact_group_uuid!);
const list = (path: string, query = '') => t.request('GET', `${urlOf(path)}${query}`, { token: owner.token });

/** Whether `a` may come before `b` in the named direction: strings without regard to case (times are `YYYY-MM-DD HH:MM:SS`, so they compare as text). */
const inOrder = (a: unknown, b: unknown, descending: boolean) => {
  const [x, y] = [String(a).toLowerCase(), String(b).toLowerCase()];
  return descending ? x >= y : x <= y;
};

describe('the lists that take sort', () => {
  it('are the main lists, each with its values as an enum in the document', () => {
    expect(SORTABLE.map((route) => route.key).sort()).toEqual(
      [
        'GET /api/2.0/audit-events',
        'GET /api/2.0/campaigns',
        'GET /api/2.0/contact-groups',
        'GET /api/2.0/contact-groups/{contact_group_uuid}/contacts',
        'GET /api/2.0/contacts',
        'GET /api/2.0/inbound-messages',
        'GET /api/2.0/keywords',
        'GET /api/2.0/opt-out-events',
        'GET /api/2.0/segments',
        'GET /api/2.0/senders',
        'GET /api/2.0/team/members',
        'GET /api/2.0/templates',
        'GET /api/2.0/tokens',
        'GET /api/2.0/webhooks',
      ].sort(),
    );
    for (const route of SORTABLE) {
      expect(route.values.length, route.key).toBeGreaterThanOrEqual(2);
      for (const value of route.values) if (!value.startsWith('-')) expect(route.values, route.key).toContain(`-${value}`);
      expect(route.description, route.key).toMatch(/Without it: `-?[a-z_]+`/);
    }
    expect(SORTABLE.find((route) => route.key === 'GET /api/2.0/campaigns')!.values).toEqual(CAMPAIGN_SORT.fields.flatMap((f) => [f, `-${f}`]));
  });
});

describe.each(SORTABLE.map((route) => [route.key, route] as const))('%s', (_key, route) => {
  it.each(route.values)('sort=%s orders the items by that field', async (value) => {
    const response = await list(route.path, `?per_page=100&sort=${value}`);
    expect(response.statusCode, response.body).toBe(200);
    const items = response.json().data as Array<Record<string, unknown>>;
    expect(items.length, `${route.key} holds too few items to show an order`).toBeGreaterThanOrEqual(3);
    const descending = value.startsWith('-');
    const field = descending ? value.slice(1) : value;
    const values = items.map((item) => item[field]);
    expect(
      values.every((v) => v !== undefined),
      `the items have no ${field}`,
    ).toBe(true);
    const misplaced = values.slice(1).flatMap((v, i) => (inOrder(values[i], v, descending) ? [] : [`${String(values[i])} before ${String(v)}`]));
    expect(misplaced).toEqual([]);
  });

  it('keeps its own order without sort: the default the document names', async () => {
    const byDefault = /Without it: `(-?[a-z_]+)`/.exec(route.description)![1];
    const plain = (await list(route.path, '?per_page=100')).json().data;
    const sorted = (await list(route.path, `?per_page=100&sort=${byDefault}`)).json().data;
    expect(plain).toEqual(sorted);
  });

  it('refuses any other value, and sort given twice, with 422 naming sort', async () => {
    for (const query of ['?sort=colour', '?sort=-', '?sort=NAME', '?sort=created_at,name', `?sort=${route.values[0]}&sort=${route.values[1]}`]) {
      const response = await list(route.path, query);
      expect(response.statusCode, query).toBe(422);
      expect(response.json()).toEqual({
        error: {
          code: 422,
          http_code: 422,
          message: 'The given data was invalid.',
          errors: { sort: [`The sort must be one of ${route.values.join(', ')}.`] },
          request_id: expect.any(String),
        },
      });
    }
  });
});

describe('pages of a sort', () => {
  it('neither overlap nor skip when every item has the same time, either way', async () => {
    const sameTime = await t.user({ team: 'Same time' });
    for (let i = 0; i < 7; i++) await post('/senders', { sender: `Tie${i}` }, sameTime);
    for (const sort of ['created_at', '-created_at']) {
      const seen: string[] = [];
      for (let page = 1; page <= 5; page++) {
        const body = (await t.request('GET', `${API}/senders?per_page=2&page=${page}&sort=${sort}`, { token: sameTime.token })).json();
        seen.push(...body.data.map((sender: { uuid: string }) => sender.uuid));
      }
      expect(seen).toHaveLength(9); // 2 default senders and 7 made at the same moment
      expect(new Set(seen).size).toBe(9);
    }
  });

  it('keeps sort in the links', async () => {
    const body = (await list(`${API}/templates`, '?per_page=1&sort=-name')).json();
    expect(body.data.map((template: { name: string }) => template.name)).toEqual(['For campaigns']);
    expect(body.links.next).toBe(`${TEST_PUBLIC_URL}${API}/templates?page=2&per_page=1&sort=-name`);
    const next = (await t.request('GET', body.links.next.slice(TEST_PUBLIC_URL.length), { token: owner.token })).json();
    expect(next.data.map((template: { name: string }) => template.name)).toEqual(['charlie']);
  });

  it('combines with search', async () => {
    const names = (await list(`${API}/templates`, '?sort=name&search=a')).json().data.map((template: { name: string }) => template.name);
    expect(names).toEqual(['Alpha', 'bravo', 'charlie', 'For campaigns']);
    const reversed = (await list(`${API}/templates`, '?sort=-name&search=r')).json().data.map((template: { name: string }) => template.name);
    expect(reversed).toEqual(['For campaigns', 'charlie', 'bravo']);
  });

  it('are the same with the interface’s path spelling', async () => {
    const plain = (await list(`${API}/senders`, `?sort=${SENDER_SORT.fields[1]}`)).json().data;
    expect((await list(`${API}/senders/`, `?sort=${SENDER_SORT.fields[1]}`)).json().data).toEqual(plain);
    expect(CONTACT_SORT.byDefault).toBe('phone_number');
  });
});
