import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

// Contacts have no foreign key to their group (migration 0029, for import speed); a trigger
// deletes a group's contacts with it, whether the group is deleted on its own or with its team.
// Counted in the table itself. Checked once that it fails without the trigger
// (DROP TRIGGER contact_groups_remove_contacts: the deleted groups' contacts stay behind).
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
});
afterAll(() => t.close());

const newGroup = async (user: TestUser, name: string) =>
  (await t.request('POST', '/api/2.0/contact-groups/', { token: user.token, body: { name } })).json().data.uuid as string;
const fill = async (user: TestUser, group: string, numbers: string[]) => {
  const response = await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, {
    token: user.token,
    body: { contacts: numbers.map((phone_number) => ({ phone_number })) },
  });
  expect(response.statusCode).toBe(200);
};
const stored = async (group: string) =>
  Number(
    (await t.database.pool.query(`SELECT count(*) FROM contacts WHERE contact_group_id = (SELECT id FROM contact_groups WHERE uuid = $1)`, [group])).rows[0]
      .count,
  );
const orphans = async () =>
  Number(
    (await t.database.pool.query(`SELECT count(*) FROM contacts c WHERE NOT EXISTS (SELECT 1 FROM contact_groups g WHERE g.id = c.contact_group_id)`)).rows[0]
      .count,
  );

describe('contacts of removed groups', () => {
  it('go with their group, and only theirs', async () => {
    const numbers = ['07700900101', '07700900102', '07700900103'];
    const [going, staying] = [await newGroup(owner, 'Going'), await newGroup(owner, 'Staying')];
    await fill(owner, going, numbers);
    await fill(owner, staying, numbers);
    expect(await stored(going)).toBe(3);

    expect((await t.request('DELETE', `/api/2.0/contact-groups/${going}`, { token: owner.token })).statusCode).toBe(204);
    expect(await orphans()).toBe(0);
    expect(await stored(staying)).toBe(3);
  });

  it('go with their team', async () => {
    const leaving = await t.user();
    await fill(leaving, await newGroup(leaving, 'A'), ['07700900201', '07700900202']);
    await fill(leaving, await newGroup(leaving, 'B'), ['07700900201']);
    const kept = await newGroup(owner, 'Kept');
    await fill(owner, kept, ['07700900201']);

    await t.database.pool.query(`DELETE FROM teams WHERE uuid = $1`, [leaving.teamUuid]);
    expect(await orphans()).toBe(0);
    expect(await stored(kept)).toBe(1);
  });
});
