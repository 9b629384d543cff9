/**
 * A/B campaigns through the API (issue 35, point 2; docs/ab-tests.md): variants and test settings
 * validated with 422s naming the field, the defaults filled, a spec client's campaign unchanged,
 * variants kept on an edit without them, and the review's split by variant.
 *
 * Seen red: without the check of unique names (editing.ts `variantsOf`), "names that repeat"
 * answered 201; with the review's split left out (`abSplitOf` returning nothing), "the review"
 * found no `ab_test`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let editor: TestUser;
let stranger: TestUser;
let templateA: string;
let templateB: string;
let foreign: string;
let group: string;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = editor.token) => t.request(method, `/api/2.0${url}`, { token, body });
const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'A/B',
  sender: 'Acme',
  scheduled_send_date: '2026-06-02 09:00:00',
  expiry_date: '2026-06-03 09:00:00',
  included_contact_groups: [group],
  excluded_contact_groups: [],
  template_uuid: templateA,
  variants: [
    { name: 'A', template_uuid: templateA },
    { name: 'B', template_uuid: templateB, sender: 'Shop' },
  ],
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  editor = await t.user();
  stranger = await t.user({ team: 'Elsewhere' });
  const template = async (name: string, token = editor.token) =>
    (await call('POST', '/templates/', { name, body: `${name} today`, sender: 'Acme' }, token)).json().data.uuid as string;
  templateA = await template('Offer A');
  templateB = await template('Offer B');
  foreign = await template('Theirs', stranger.token);
  group = (await call('POST', '/contact-groups/', { name: 'Ten' })).json().data.uuid;
  const contacts = Array.from({ length: 10 }, (_, i) => ({ phone_number: `0770090010${i}` }));
  await call('PUT', `/contact-groups/${group}/add-contacts`, { contacts });
});
afterAll(() => t.close());

describe('A/B campaigns through the API', () => {
  it('makes one with the defaults filled, and shows its variants and test state', async () => {
    const created = await call('POST', '/campaigns/', body());
    expect(created.statusCode, created.body).toBe(201);
    const data = created.json().data;
    expect(data.variants).toEqual([
      { name: 'A', template_uuid: templateA, sender: '' },
      { name: 'B', template_uuid: templateB, sender: 'Shop' },
    ]);
    expect(data.ab_test).toMatchObject({
      test_share: 20,
      metric: 'human_click_rate',
      decide_after_minutes: 120,
      min_recipients_per_variant: 500,
      status: 'testing',
      winner: null,
      decided_by: null,
      probability: null,
      decided_at: '',
    });
    expect(data.ab_test.results.map((r: { name: string; recipients: number; probability_best: null }) => [r.name, r.recipients, r.probability_best])).toEqual([
      ['A', 0, null],
      ['B', 0, null],
    ]);
    // An edit without variants (a client of the spec) keeps them; `[]` removes them.
    const { variants: _, ...spec } = body({ name: 'Renamed' });
    const edited = await call('PUT', `/campaigns/${data.uuid}`, spec);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.variants.length).toBe(2);
    const removed = await call('PUT', `/campaigns/${data.uuid}`, { ...spec, variants: [] });
    expect(removed.json().data).toMatchObject({ variants: [], ab_test: null });
  });

  it('a campaign without variants shows none', async () => {
    const { variants: _, ...spec } = body();
    const created = await call('POST', '/campaigns/', spec);
    expect(created.json().data).toMatchObject({ variants: [], ab_test: null });
  });

  it.each([
    ['one variant', { variants: [{ name: 'A', template_uuid: '' }] }, 'variants'],
    ['five variants', { variants: Array.from({ length: 5 }, (_, i) => ({ name: `V${i}`, template_uuid: '' })) }, 'variants'],
    ['names that repeat', { variants: [{ name: 'A' }, { name: 'a' }] }, 'variants'],
    ["another team's template", { variants: [{ name: 'A' }, { name: 'B', template: 'foreign' }] }, 'variants'],
    ['a first variant that is not the campaign', { variants: [{ name: 'A', template: 'B' }, { name: 'B' }] }, 'variants'],
    ['a test share of 100', { ab_test: { test_share: 100 } }, 'ab_test.test_share'],
    ['an unknown metric', { ab_test: { metric: 'opens' } }, 'ab_test.metric'],
    ['a test without variants', { variants: [], ab_test: { test_share: 10 } }, 'ab_test'],
  ])('refuses %s (422 naming the field)', async (_, overrides, field) => {
    const fill = (variant: { name: string; template?: string; template_uuid?: string }) => ({
      name: variant.name,
      template_uuid: variant.template === 'foreign' ? foreign : variant.template === 'B' ? templateB : templateA,
    });
    const given = overrides as { variants?: Array<{ name: string; template?: string }> };
    const payload = body({ ...overrides, ...(given.variants && given.variants.length > 0 ? { variants: given.variants.map(fill) } : {}) });
    const response = await call('POST', '/campaigns/', payload);
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys(response.json().error.errors)).toContain(field);
  });

  it('the review splits the audience by variant and says the rest get the winner', async () => {
    const created = (await call('POST', '/campaigns/', body({ ab_test: { test_share: 40, min_recipients_per_variant: 1 } }))).json().data;
    const review = (await call('GET', `/campaigns/${created.uuid}/review`)).json().data;
    expect(review.ab_test).toEqual({
      variants: [
        { name: 'A', test_recipients: 2 },
        { name: 'B', test_recipients: 2 },
      ],
      rest: 6,
      metric: 'human_click_rate',
      decide_after_minutes: 120,
    });
    // Too small for the minimum: everyone is tested, evenly.
    const small = (await call('POST', '/campaigns/', body({ ab_test: { min_recipients_per_variant: 500 } }))).json().data;
    expect((await call('GET', `/campaigns/${small.uuid}/review`)).json().data.ab_test).toMatchObject({
      variants: [
        { name: 'A', test_recipients: 5 },
        { name: 'B', test_recipients: 5 },
      ],
      rest: 0,
    });
  });
});
