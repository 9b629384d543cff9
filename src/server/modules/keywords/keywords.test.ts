import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let groupA: string;
let groupB: string;
let hook: string;
let strangersGroup: string;
let strangersHook: string;

async function group(user: TestUser, name: string): Promise<string> {
  return (await t.request('POST', '/api/2.0/contact-groups/', { token: user.token, body: { name } })).json().data.uuid;
}

async function webhook(user: TestUser): Promise<string> {
  return (await t.request('POST', '/api/2.0/webhooks/', { token: user.token, body: { name: 'Hook', url: 'https://example.com/h' } })).json().data.uuid;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  stranger = await t.user();
  [groupA, groupB, hook, strangersGroup, strangersHook] = await Promise.all([
    group(owner, 'VIP'),
    group(owner, 'Promo'),
    webhook(owner),
    group(stranger, 'Theirs'),
    webhook(stranger),
  ]);
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, user = owner) => t.request('POST', '/api/2.0/keywords/', { token: user.token, body });

const full = (keyword: string) => ({
  keyword,
  message: 'Thanks! You are in.',
  help: 'Joins the VIP list',
  add_contact_to_group: true,
  call_webhook: true,
  contact_groups_uuid: [groupA, groupB],
  webhooks_uuid: [hook],
});

describe('keywords', () => {
  it('creates a keyword in the shape of docs/interface.md §2.4 and returns call_webhook as stored everywhere', async () => {
    const response = await create(full('JOIN'));
    expect(response.statusCode).toBe(201);
    const keyword = response.json().data;
    expect(keyword).toMatchObject({
      ...full('JOIN'),
      status: '1',
      links: [{ rel: 'self', uri: `${TEST_PUBLIC_URL}/api/2.0/keywords/${keyword.uuid}` }],
    });
    expect((await t.request('GET', `/api/2.0/keywords/${keyword.uuid}`, { token: owner.token })).json().data.call_webhook).toBe(true);
    const listed = (await t.request('GET', '/api/2.0/keywords/', { token: owner.token })).json().data.find((k: { uuid: string }) => k.uuid === keyword.uuid);
    expect(listed).toMatchObject({ call_webhook: true, contact_groups_uuid: [groupA, groupB], webhooks_uuid: [hook] });
  });

  it('needs only the keyword; the options default to off', async () => {
    const response = await create({ keyword: 'INFO' });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      message: '',
      help: '',
      add_contact_to_group: false,
      call_webhook: false,
      contact_groups_uuid: [],
      webhooks_uuid: [],
    });
  });

  it('is unique across the service, whatever the case', async () => {
    await create({ keyword: 'Deals' });
    const sameTeam = await create({ keyword: 'DEALS' });
    expect(sameTeam.statusCode).toBe(422);
    expect(sameTeam.json().error.errors.keyword).toEqual(['The keyword has already been taken.']);
    const otherTeam = await create({ keyword: 'deals' }, stranger);
    expect(otherTeam.json().error.errors.keyword).toEqual(['The keyword has already been taken.']);
  });

  it.each([
    ['two words', { keyword: 'TWO WORDS' }, 'keyword', 'The keyword must be one word of letters and digits (at most 30).'],
    ['an opt-out word', { keyword: 'stop' }, 'keyword', 'The keyword is reserved for opt-outs (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT).'],
    ['no keyword', { message: 'x' }, 'keyword', 'The keyword field is required.'],
    [
      'groups enabled without groups',
      { keyword: 'G1', add_contact_to_group: true },
      'contact_groups_uuid',
      'The contact groups uuid field is required when add contact to group is true.',
    ],
    [
      'webhooks enabled without webhooks',
      { keyword: 'W1', call_webhook: true, webhooks_uuid: [] },
      'webhooks_uuid',
      'The webhooks uuid field is required when call webhook is true.',
    ],
    ['a boolean as a string', { keyword: 'B1', call_webhook: 'yes' }, 'call_webhook', 'The call webhook must be true or false.'],
    ['a malformed group uuid', { keyword: 'M1', contact_groups_uuid: ['abc'] }, 'contact_groups_uuid.0', 'The selected contact groups uuid is invalid.'],
  ])('refuses %s with 422 naming the field', async (_case, body, field, message) => {
    const response = await create(body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors[field]).toEqual([message]);
  });

  it("refuses another team's group or webhook, and an unknown one, with 422 on that field", async () => {
    for (const [body, field] of [
      [{ keyword: 'X1', add_contact_to_group: true, contact_groups_uuid: [strangersGroup] }, 'contact_groups_uuid'],
      [{ keyword: 'X2', call_webhook: true, webhooks_uuid: [strangersHook] }, 'webhooks_uuid'],
      [{ keyword: 'X3', call_webhook: true, webhooks_uuid: ['0b5e0f1a-2b3c-4c1e-9d55-5b0c5a8e3f7e'] }, 'webhooks_uuid'],
    ] as const) {
      const response = await create(body);
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().error.errors)).toEqual([field]);
    }
    expect((await t.request('GET', '/api/2.0/keywords/', { token: owner.token })).json().data.map((k: { keyword: string }) => k.keyword)).not.toContain('X1');
  });

  it('edits any field and keeps the rest; the result obeys the create rules', async () => {
    const keyword = (await create(full('EDITME'))).json().data;
    const url = `/api/2.0/keywords/${keyword.uuid}`;
    const edited = await t.request('PUT', url, { token: owner.token, body: { message: 'New reply', contact_groups_uuid: [groupB] } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({
      keyword: 'EDITME',
      message: 'New reply',
      contact_groups_uuid: [groupB],
      webhooks_uuid: [hook],
      call_webhook: true,
    });
    const broken = await t.request('PUT', url, { token: owner.token, body: { webhooks_uuid: [] } });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().error.errors.webhooks_uuid).toEqual(['The webhooks uuid field is required when call webhook is true.']);
    const off = await t.request('PUT', url, { token: owner.token, body: { call_webhook: false, webhooks_uuid: [] } });
    expect(off.json().data).toMatchObject({ call_webhook: false, webhooks_uuid: [] });
    const renamed = await t.request('PUT', url, { token: owner.token, body: { keyword: 'join' } });
    expect(renamed.json().error.errors.keyword).toEqual(['The keyword has already been taken.']);
  });

  it('keeps a webhook that a keyword calls from being deleted', async () => {
    const response = await t.request('DELETE', `/api/2.0/webhooks/${hook}`, { token: owner.token });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('The webhook is called by the keyword JOIN; detach it first.');
  });

  it("deletes a keyword, and never touches another team's", async () => {
    const keyword = (await create({ keyword: 'BYE' })).json().data;
    const url = `/api/2.0/keywords/${keyword.uuid}`;
    for (const [method, body] of [['GET'], ['PUT', { message: 'x' }], ['DELETE']] as const) {
      expect((await t.request(method, url, { token: stranger.token, body })).statusCode).toBe(404);
    }
    expect((await t.request('DELETE', url, { token: owner.token })).statusCode).toBe(204);
    expect((await t.request('GET', url, { token: owner.token })).statusCode).toBe(404);
  });
});
