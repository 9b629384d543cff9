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

const create = (user: TestUser, domain: unknown) => t.request('POST', '/api/2.0/vanity-domains/', { token: user.token, body: { domain } });

describe('vanity domains', () => {
  it("gives every team the service's own link domain, which cannot be changed or deleted", async () => {
    const list = (await t.request('GET', '/api/2.0/vanity-domains/', { token: owner.token })).json();
    expect(list.meta.total).toBe(1);
    const own = list.data[0];
    expect(own).toMatchObject({ domain: 'herald.test/l', url_base: `${TEST_PUBLIC_URL}/l`, is_default: true, status: '1' });
    const edit = await t.request('PUT', `/api/2.0/vanity-domains/${own.uuid}`, { token: owner.token, body: { domain: 'go.example.com' } });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.message).toBe("The service's own link domain cannot be changed or deleted.");
    expect((await t.request('DELETE', `/api/2.0/vanity-domains/${own.uuid}`, { token: owner.token })).statusCode).toBe(409);
  });

  it('adds a custom domain, lower-cased, whose links are https://<domain>/<code>', async () => {
    const response = await create(owner, 'Go.Acme-Shop.CO.UK');
    expect(response.statusCode).toBe(201);
    const domain = response.json().data;
    expect(domain).toMatchObject({
      domain: 'go.acme-shop.co.uk',
      url_base: 'https://go.acme-shop.co.uk',
      is_default: false,
      links: [{ rel: 'self', uri: `${TEST_PUBLIC_URL}/api/2.0/vanity-domains/${domain.uuid}` }],
    });
    expect((await t.request('GET', `/api/2.0/vanity-domains/${domain.uuid}`, { token: owner.token })).json().data).toEqual(domain);
  });

  it.each(['https://go.example.com', 'go.example.com/path', 'localhost', 'go example.com', 'go.example.com:8080', '-bad.example.com'])(
    'refuses %s: a host name only',
    async (domain) => {
      const response = await create(owner, domain);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.errors.domain).toEqual(['The domain must be a host name such as go.example.com (no scheme, port or path).']);
    },
  );

  it('refuses a domain the team already has', async () => {
    await create(owner, 'twice.example.com');
    const again = await create(owner, 'TWICE.example.com');
    expect(again.statusCode).toBe(422);
    expect(again.json().error.errors.domain).toEqual(['The domain has already been taken.']);
  });

  it('edits and deletes a custom domain', async () => {
    const domain = (await create(owner, 'old.example.com')).json().data;
    const edited = await t.request('PUT', `/api/2.0/vanity-domains/${domain.uuid}`, { token: owner.token, body: { domain: 'new.example.com' } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.url_base).toBe('https://new.example.com');
    expect((await t.request('DELETE', `/api/2.0/vanity-domains/${domain.uuid}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.request('GET', `/api/2.0/vanity-domains/${domain.uuid}`, { token: owner.token })).statusCode).toBe(404);
  });

  it("never shows, edits or deletes another team's domain", async () => {
    const domain = (await create(owner, 'private.example.com')).json().data;
    for (const [method, body] of [['GET'], ['PUT', { domain: 'stolen.example.com' }], ['DELETE']] as const) {
      expect((await t.request(method, `/api/2.0/vanity-domains/${domain.uuid}`, { token: stranger.token, body })).statusCode).toBe(404);
    }
    const theirs = (await t.request('GET', '/api/2.0/vanity-domains/', { token: stranger.token })).json().data;
    expect(theirs.map((d: { domain: string }) => d.domain)).toEqual(['herald.test/l']);
  });
});
