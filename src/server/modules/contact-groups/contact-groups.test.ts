import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  stranger = await t.user();
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, user = owner) => t.request('POST', '/api/2.0/contact-groups/', { token: user.token, body });
const list = (user = owner) => t.request('GET', '/api/2.0/contact-groups/', { token: user.token });

describe('contact groups', () => {
  it('gives every team default_optouts: not deletable, not renamable', async () => {
    const optouts = (await list()).json().data.find((g: { name: string }) => g.name === 'default_optouts');
    expect(optouts).toMatchObject({ deletable: false, number_of_contacts: 0, status: 'Empty', headers: [] });
    const rename = await t.request('PUT', `/api/2.0/contact-groups/${optouts.uuid}`, { token: owner.token, body: { name: 'mine' } });
    expect(rename.statusCode).toBe(409);
    const remove = await t.request('DELETE', `/api/2.0/contact-groups/${optouts.uuid}`, { token: owner.token });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().error.message).toBe('The default_optouts group cannot be deleted.');
  });

  it('creates a group with the fields of the original service', async () => {
    const response = await create({ name: 'VIP customers', description: 'Spent over £500', headers: ['first_name', 'Store'] });
    expect(response.statusCode).toBe(201);
    const group = response.json().data;
    expect(group).toEqual({
      uuid: expect.any(String),
      name: 'VIP customers',
      description: 'Spent over £500',
      deletable: true,
      number_of_contacts: 0,
      status: 'Empty',
      headers: ['first_name', 'Store'],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      links: [{ rel: 'self', uri: `${TEST_PUBLIC_URL}/api/2.0/contact-groups/${group.uuid}` }],
    });
    expect((await create({ name: 'No description' })).json().data.description).toBeNull();
  });

  it.each([
    ['no name', {}, 'name', 'The name field is required.'],
    ['the reserved name', { name: 'Default_Optouts' }, 'name', "The name default_optouts is reserved for the team's opt-outs."],
    ['repeated headers', { name: 'x', headers: ['a', 'A'] }, 'headers', 'The headers must be distinct.'],
    ['phone_number as a header', { name: 'x', headers: ['phone_number'] }, 'headers.0', 'phone_number is the number itself, not a custom field.'],
  ])('refuses %s with 422', async (_case, body, field, message) => {
    const response = await create(body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors[field]).toEqual([message]);
  });

  it('edits a group, keeping what is left out', async () => {
    const group = (await create({ name: 'Old', description: 'kept', headers: ['a'] })).json().data;
    const edited = await t.request('PUT', `/api/2.0/contact-groups/${group.uuid}`, { token: owner.token, body: { name: 'New' } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ name: 'New', description: 'kept', headers: ['a'] });
  });

  it('deletes a group unless a keyword adds numbers to it', async () => {
    const group = (await create({ name: 'Joined' })).json().data;
    const keyword = await t.request('POST', '/api/2.0/keywords/', {
      token: owner.token,
      body: { keyword: 'JOINUS', add_contact_to_group: true, contact_groups_uuid: [group.uuid] },
    });
    expect(keyword.statusCode).toBe(201);
    const refused = await t.request('DELETE', `/api/2.0/contact-groups/${group.uuid}`, { token: owner.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('The group is used by the keyword JOINUS; detach it first.');
    await t.request('DELETE', `/api/2.0/keywords/${keyword.json().data.uuid}`, { token: owner.token });
    expect((await t.request('DELETE', `/api/2.0/contact-groups/${group.uuid}`, { token: owner.token })).statusCode).toBe(204);
  });

  it("never shows, edits or deletes another team's group", async () => {
    const group = (await create({ name: 'Private' })).json().data;
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      expect((await t.request(method, `/api/2.0/contact-groups/${group.uuid}`, { token: stranger.token, body })).statusCode).toBe(404);
    }
    expect((await list(stranger)).json().data.map((g: { name: string }) => g.name)).toEqual(['default_optouts']);
  });
});
