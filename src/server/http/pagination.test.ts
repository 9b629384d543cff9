import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../testing/test-app';

let t: TestApp;
let user: TestUser;
const LIST = `${TEST_PUBLIC_URL}/api/2.0/senders/`;

// 2 default senders + 33 created = 35 senders: pages of 15 are 15, 15, 5.
beforeAll(async () => {
  t = await createTestApp();
  user = await t.user({ team: 'Paging Team' });
  for (let i = 1; i <= 33; i++) {
    const response = await t.request('POST', '/api/2.0/senders/', { token: user.token, body: { sender: `Sender${String(i).padStart(2, '0')}` } });
    expect(response.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

const list = (query = '') => t.request('GET', `/api/2.0/senders/${query}`, { token: user.token });

describe('the list envelope', () => {
  it('has 15 per page by default, absolute links and every meta field', async () => {
    const body = (await list()).json();
    expect(body.data).toHaveLength(15);
    expect(body.links).toEqual({ first: `${LIST}?page=1`, last: `${LIST}?page=3`, prev: null, next: `${LIST}?page=2` });
    expect(body.meta).toEqual({ current_page: 1, from: 1, last_page: 3, path: LIST, per_page: 15, to: 15, total: 35 });
  });

  it('knows the middle and the last page', async () => {
    const middle = (await list('?page=2')).json();
    expect(middle.links.prev).toBe(`${LIST}?page=1`);
    expect(middle.links.next).toBe(`${LIST}?page=3`);
    expect(middle.meta).toMatchObject({ current_page: 2, from: 16, to: 30 });
    const last = (await list('?page=3')).json();
    expect(last.data).toHaveLength(5);
    expect(last.links.next).toBeNull();
    expect(last.meta).toMatchObject({ current_page: 3, from: 31, to: 35, total: 35 });
  });

  it('keeps a chosen page size in the links', async () => {
    const body = (await list('?per_page=10&page=2')).json();
    expect(body.data).toHaveLength(10);
    expect(body.links).toEqual({
      first: `${LIST}?page=1&per_page=10`,
      last: `${LIST}?page=4&per_page=10`,
      prev: `${LIST}?page=1&per_page=10`,
      next: `${LIST}?page=3&per_page=10`,
    });
    expect(body.meta).toMatchObject({ per_page: 10, last_page: 4, from: 11, to: 20 });
  });

  it('accepts per_page 1 and 100', async () => {
    expect((await list('?per_page=1')).json().meta).toMatchObject({ per_page: 1, last_page: 35 });
    const all = (await list('?per_page=100')).json();
    expect(all.data).toHaveLength(35);
    expect(all.meta).toMatchObject({ last_page: 1, from: 1, to: 35 });
  });

  it('answers a page past the end with no data and true meta', async () => {
    const response = await list('?page=9');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data).toEqual([]);
    expect(body.meta).toEqual({ current_page: 9, from: null, last_page: 3, path: LIST, per_page: 15, to: null, total: 35 });
    expect(body.links.next).toBeNull();
    expect(body.links.prev).toBe(`${LIST}?page=3`);
  });

  it('pages in a stable order: the pages together hold every sender once', async () => {
    const seen = new Set<string>();
    for (const page of [1, 2, 3]) for (const sender of (await list(`?page=${page}`)).json().data) seen.add(sender.uuid);
    expect(seen.size).toBe(35);
  });

  it.each([
    ['?per_page=0', 'per_page', 'The per page must be at least 1.'],
    ['?per_page=101', 'per_page', 'The per page may not be greater than 100.'],
    ['?per_page=abc', 'per_page', 'The per page must be an integer.'],
    ['?per_page=2.5', 'per_page', 'The per page must be an integer.'],
    ['?page=0', 'page', 'The page must be at least 1.'],
    ['?page=-1', 'page', 'The page must be at least 1.'],
    ['?page=two', 'page', 'The page must be an integer.'],
  ])('refuses %s with 422', async (query, field, message) => {
    const response = await list(query);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({ [field]: [message] });
  });
});
