import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';

/**
 * A country condition places each number by its first six digits, and the compiler finds the
 * prefixes of a team's numbers by skipping along each group's number index from one prefix to the
 * next (db/segment-sql.ts `prefixSamplesOf`) rather than reading every contact. Here the numbers
 * share their first digits (+44) but not their country (Jersey, Guernsey, the Isle of Man, the
 * United Kingdom), in two groups, so a walk that skipped too far would lose a country. Counts
 * worked out by hand.
 *
 * Seen red: with the walk skipping past every number of the first digit rather than of the six
 * (`left(w.sample, 1)`), Jersey and Guernsey counted 0.
 */
const API = '/api/2.0';
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  const fill = async (name: string, numbers: string[]) => {
    const group = (await t.request('POST', `${API}/contact-groups/`, { token: owner.token, body: { name } })).json().data.uuid as string;
    const response = await t.request('PUT', `${API}/contact-groups/${group}/add-contacts`, {
      token: owner.token,
      body: { contacts: numbers.map((phone_number) => ({ phone_number })) },
    });
    expect(response.statusCode).toBe(200);
  };
  await fill('Islands', ['+447700900001', '+447797123456']); // GB, JE
  await fill('More islands', ['+447781123456', '+447624123456', '+447797123457', '+447700900001']); // GG, IM, JE, GB again
});
afterAll(() => t.close());

const countOf = async (op: 'in' | 'not_in', values: string[]) => {
  const response = await t.request('POST', `${API}/segments/count`, {
    token: owner.token,
    body: { match: 'all', conditions: [{ type: 'country', op, values }] },
  });
  expect(response.statusCode).toBe(200);
  return response.json().data.count as number;
};

describe('country conditions over numbers of one calling code', () => {
  it('places every number, whatever the prefixes around it', async () => {
    expect(await countOf('in', ['JE'])).toBe(2);
    expect(await countOf('in', ['GG'])).toBe(1);
    expect(await countOf('in', ['IM'])).toBe(1);
    expect(await countOf('in', ['GB'])).toBe(1); // one number in both groups
    expect(await countOf('not_in', ['GB'])).toBe(4);
  });
});
