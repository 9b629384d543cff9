/**
 * A group's contacts as a CSV download (issue 20, point 5): the file a spreadsheet opens, read over
 * the API (and once over a real socket, as a browser downloads it).
 *
 * Seen red (each protection removed once, the file run, then put back):
 * - neutralised cells: with the lines written as plain `cells.join(',')` instead of `csvLine`, the
 *   `=cmd` cell came out as `=cmd` and "neutralises formulas" failed;
 * - streamed completely: with the page loop stopped after its first page (1,000 contacts), the
 *   download of 3,500 held 1,000 rows and "streams a group of thousands completely" failed;
 * - team scoping: with the group looked up by its uuid in any team, the second team read the file (200, not 404).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';

const API = '/api/2.0';
let t: TestApp;
let owner: TestUser;
let other: TestUser;
let small: string;
let large: string;
const LARGE = 3500;

const groupOf = async (user: TestUser, name: string, headers: string[], contacts: Array<{ phone_number: string; custom_fields?: Record<string, string> }>) => {
  const uuid = (await t.request('POST', `${API}/contact-groups/`, { token: user.token, body: { name, headers } })).json().data.uuid as string;
  const added = await t.request('PUT', `${API}/contact-groups/${uuid}/add-contacts`, { token: user.token, body: { contacts } });
  expect(added.statusCode, added.body).toBe(200);
  return uuid;
};

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  other = await t.user();
  small = await groupOf(
    owner,
    'Spring / Leeds: "VIP"',
    ['first_name', 'notes'],
    [
      { phone_number: '07700900402', custom_fields: { first_name: 'Bo', notes: 'likes, commas' } },
      { phone_number: '07700900401', custom_fields: { first_name: '=cmd|/c calc', notes: '+SUM(A1)' } },
      { phone_number: '07700900403', custom_fields: { first_name: 'Zoë' } },
    ],
  );
  large = await groupOf(
    owner,
    'Everyone',
    ['n'],
    Array.from({ length: LARGE }, (_, i) => ({ phone_number: `+447400${String(i).padStart(6, '0')}`, custom_fields: { n: String(i) } })),
  );
});
afterAll(() => t.close());

describe('GET /contact-groups/{uuid}/export.csv', () => {
  it('answers phone_number then the headers, UTF-8 with a byte order mark, formulas neutralised, as a download with a safe name', async () => {
    const response = await t.request('GET', `${API}/contact-groups/${small}/export.csv`, { token: owner.token });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="spring-leeds-vip-contacts.csv"');
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(
      ['phone_number,first_name,notes', "447700900401,'=cmd|/c calc,'+SUM(A1)", '447700900402,Bo,"likes, commas"', '447700900403,Zoë,', ''].join('\r\n'),
    );
  });

  it('streams a group of thousands completely, in number order, over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${API}`;
    const response = await fetch(`${base}/contact-groups/${large}/export.csv`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(response.status).toBe(200);
    // Streamed: no Content-Length, the body comes in chunks.
    expect(response.headers.get('content-length')).toBeNull();
    const lines = (await response.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('phone_number,n');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(LARGE);
    expect(rows[0]).toBe('447400000000,0');
    expect(rows[LARGE - 1]).toBe(`447400${String(LARGE - 1).padStart(6, '0')},${LARGE - 1}`);
    expect(new Set(rows).size).toBe(LARGE);
  });

  it("is 404 for another team's group, and for a group that does not exist", async () => {
    for (const [user, uuid] of [
      [other, small],
      [owner, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const response = await t.request('GET', `${API}/contact-groups/${uuid}/export.csv`, { token: user.token });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error.code).toBe(404);
    }
  });
});
