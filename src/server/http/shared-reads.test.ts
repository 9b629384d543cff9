import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

let t: TestApp;
let owner: TestUser;
let neighbour: TestUser;
const LIST = '/api/2.0/templates/';

const createTemplate = async (user: TestUser, name: string) => {
  const response = await t.request('POST', LIST, { token: user.token, body: { name, body: `${name}: 20% off this weekend.`, sender: 'Herald' } });
  expect(response.statusCode).toBe(201);
  return response.json().data as { uuid: string; name: string };
};

/**
 * How many times the templates page was read from the database while `work` ran. With `holdMs`,
 * each read's rows are held that long after PostgreSQL produced them: a read stays "running"
 * with an old snapshot, as a slow one would.
 */
async function observePageReads(work: () => Promise<unknown>, options: { holdMs?: number } = {}): Promise<number> {
  const pool = t.database.pool as pg.Pool & { query: (...args: unknown[]) => unknown };
  const query = pool.query;
  let reads = 0;
  pool.query = function (this: pg.Pool, ...args: unknown[]) {
    const result = query.apply(this, args as Parameters<typeof query>);
    if ((args[0] as { name?: string } | undefined)?.name !== 'templates_list_page') return result;
    reads += 1;
    const hold = options.holdMs ?? 0;
    return hold === 0 ? result : (result as Promise<unknown>).then((rows) => new Promise((resolve) => setTimeout(() => resolve(rows), hold)));
  } as typeof pool.query;
  try {
    await work();
  } finally {
    pool.query = query;
  }
  return reads;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user({ team: 'Owner Team' });
  neighbour = await t.user({ team: 'Neighbour Team' });
  for (let i = 1; i <= 20; i++) await createTemplate(owner, `Owner offer ${i}`);
  await createTemplate(neighbour, 'Neighbour offer');
});
afterAll(() => t.close());

describe('identical reads at the same time', () => {
  it('are answered together: the same body as a lone read, with fewer reads than requests', async () => {
    const alone = await t.request('GET', LIST, { token: owner.token });
    expect(alone.statusCode).toBe(200);
    const responses: Awaited<ReturnType<TestApp['request']>>[] = [];
    const reads = await observePageReads(async () => {
      responses.push(...(await Promise.all(Array.from({ length: 20 }, () => t.request('GET', LIST, { token: owner.token })))));
    });
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toBe(alone.body);
    }
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThan(10);
  });

  it('never miss a change made before the request was sent, while a slower read of the same page runs', async () => {
    let reading = true;
    await observePageReads(
      async () => {
        const readers = Array.from({ length: 4 }, async () => {
          while (reading) expect((await t.request('GET', LIST, { token: owner.token })).statusCode).toBe(200);
        });
        try {
          for (let i = 1; i <= 8; i++) {
            const created = await createTemplate(owner, `Fresh offer ${i}`);
            const page = (await t.request('GET', LIST, { token: owner.token })).json() as { data: Array<{ uuid: string }>; meta: { total: number } };
            expect(page.data[0]!.uuid).toBe(created.uuid);
            expect(page.meta.total).toBe(20 + i);
          }
        } finally {
          reading = false;
          await Promise.all(readers);
        }
      },
      { holdMs: 25 },
    );
  });

  it("of two teams stay each team's own, for lists and for one resource", async () => {
    const own = await createTemplate(owner, 'Owner secret offer');
    const ownPath = `${LIST}${own.uuid}`;
    const requests = Array.from({ length: 10 }, (_, i) => {
      const user = i % 2 === 0 ? owner : neighbour;
      return Promise.all([t.request('GET', LIST, { token: user.token }), t.request('GET', ownPath, { token: user.token })]).then(([list, one]) => ({
        user,
        list,
        one,
      }));
    });
    for (const { user, list, one } of await Promise.all(requests)) {
      const names = (list.json().data as Array<{ name: string }>).map((template) => template.name);
      if (user === owner) {
        expect(names).not.toContain('Neighbour offer');
        expect(one.statusCode).toBe(200);
        expect(one.json().data.name).toBe('Owner secret offer');
      } else {
        expect(names).toEqual(['Neighbour offer']);
        expect(one.statusCode).toBe(404);
        expect(one.json()).toEqual({ error: { code: 404, http_code: 404, message: 'The requested resource was not found.', request_id: expect.any(String) } });
      }
    }
  });

  it('share a "not found" in the error shape', async () => {
    const missing = `${LIST}00000000-0000-4000-8000-000000000000`;
    const responses = await Promise.all(Array.from({ length: 8 }, () => t.request('GET', missing, { token: owner.token })));
    for (const response of responses) {
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({
        error: { code: 404, http_code: 404, message: 'The requested resource was not found.', request_id: expect.any(String) },
      });
    }
  });

  it('answer a HEAD like its GET, without a body', async () => {
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => t.app.inject({ method: 'HEAD', url: LIST, headers: { authorization: `Bearer ${owner.token}` } })),
    );
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe('');
    }
  });

  it('still check every token on its own', async () => {
    const responses = await Promise.all([
      ...Array.from({ length: 6 }, () => t.request('GET', LIST, { token: owner.token })),
      t.request('GET', LIST, { token: 'not-a-token' }),
      t.request('GET', LIST),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 401, 401]);
  });
});

describe('rate limits with identical reads', () => {
  it('count every request, shared or not', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const user = await limited.user();
      const responses = await Promise.all(Array.from({ length: 8 }, () => limited.request('GET', LIST, { token: user.token })));
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
