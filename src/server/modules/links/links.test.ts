import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let template: string;
let ownDomain: string;
let customDomain: string;

const TEMPLATE = { name: 'Sale', body: 'Shop now: ::Shop::', sender: 'Acme' };

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  stranger = await t.user();
  template = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: TEMPLATE })).json().data.uuid;
  ownDomain = (await t.request('GET', '/api/2.0/vanity-domains/', { token: owner.token })).json().data[0].uuid;
  customDomain = (await t.request('POST', '/api/2.0/vanity-domains/', { token: owner.token, body: { domain: 'go.acme.com' } })).json().data.uuid;
});
afterAll(() => t.close());

const linkBody = (overrides: Record<string, unknown> = {}) => ({
  template_uuid: template,
  vanity_domain_uuid: ownDomain,
  name: 'Shop',
  destination: 'https://shop.example.com/sale?utm=sms',
  ...overrides,
});
const create = (body: Record<string, unknown>, user = owner) => t.request('POST', '/api/2.0/links/', { token: user.token, body });

describe('links', () => {
  it('creates a link in the shape of docs/interface.md §2.2 and resolves the template’s ::NAME::', async () => {
    const response = await create(linkBody());
    expect(response.statusCode).toBe(201);
    const link = response.json().data;
    expect(link).toMatchObject({
      id: expect.any(Number),
      template_id: expect.any(Number),
      vanity_domain_id: expect.any(Number),
      template_uuid: template,
      vanity_domain_uuid: ownDomain,
      name: 'Shop',
      destination: 'https://shop.example.com/sale?utm=sms',
    });
    const preview = (await t.request('GET', `/api/2.0/templates/${template}/preview`, { token: owner.token })).json().data;
    expect(preview.body).toMatch(/^Shop now: http:\/\/herald\.test\/l\/[0-9A-Za-z]{7}$/);
    expect(preview.warnings).toEqual([]);
  });

  it('uses a custom domain for its short links', async () => {
    const other = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { ...TEMPLATE, body: 'Go ::Go::' } })).json().data.uuid;
    await create(linkBody({ template_uuid: other, vanity_domain_uuid: customDomain, name: 'Go' }));
    const preview = (await t.request('GET', `/api/2.0/templates/${other}/preview`, { token: owner.token })).json().data;
    expect(preview.body).toMatch(/^Go https:\/\/go\.acme\.com\/[0-9A-Za-z]{7}$/);
    const removeDomain = await t.request('DELETE', `/api/2.0/vanity-domains/${customDomain}`, { token: owner.token });
    expect(removeDomain.statusCode).toBe(409);
    expect(removeDomain.json().error.message).toBe('The vanity domain is used by 1 link; move or delete them first.');
  });

  it.each([
    ['a name with a space', { name: 'Two words' }, 'name', 'The name may only contain letters, digits, _ and - (at most 50), as in ::NAME::.'],
    ['a relative destination', { name: 'Rel', destination: '/sale' }, 'destination', 'The destination must be an absolute http or https URL.'],
    ['a javascript: destination', { name: 'Js', destination: 'javascript:alert(1)' }, 'destination', 'The destination must be an absolute http or https URL.'],
    ['a malformed template uuid', { name: 'T', template_uuid: 'nope' }, 'template_uuid', 'The selected template uuid is invalid.'],
  ])('refuses %s with 422', async (_case, overrides, field, message) => {
    const response = await create(linkBody(overrides));
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors[field]).toEqual([message]);
  });

  it('refuses a second link of the same name in a template', async () => {
    const response = await create(linkBody());
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors.name).toEqual(['The template already has a link with this name.']);
  });

  it("refuses another team's template or domain with 422 naming the field", async () => {
    const theirDomain = (await t.request('GET', '/api/2.0/vanity-domains/', { token: stranger.token })).json().data[0].uuid;
    const response = await create(linkBody({ name: 'X', vanity_domain_uuid: theirDomain }));
    expect(response.json().error.errors).toEqual({ vanity_domain_uuid: ['The selected vanity domain uuid is invalid.'] });
    const theirs = await create(linkBody({ name: 'Y' }), stranger);
    expect(theirs.json().error.errors).toEqual({
      template_uuid: ['The selected template uuid is invalid.'],
      vanity_domain_uuid: ['The selected vanity domain uuid is invalid.'],
    });
  });

  it('lists, filters by template, edits and deletes', async () => {
    const extra = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: TEMPLATE })).json().data.uuid;
    const link = (await create(linkBody({ template_uuid: extra, name: 'Extra' }))).json().data;
    const filtered = (await t.request('GET', `/api/2.0/links/?template_uuid=${extra}`, { token: owner.token })).json();
    expect(filtered.data.map((l: { uuid: string }) => l.uuid)).toEqual([link.uuid]);
    const edited = await t.request('PUT', `/api/2.0/links/${link.uuid}`, { token: owner.token, body: linkBody({ template_uuid: extra, name: 'Renamed' }) });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.name).toBe('Renamed');
    expect((await t.request('DELETE', `/api/2.0/links/${link.uuid}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.request('GET', `/api/2.0/links/${link.uuid}`, { token: owner.token })).statusCode).toBe(404);
  });

  it('refuses changes with 423 while a campaign that uses the template is sending', async () => {
    const locked = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: TEMPLATE })).json().data.uuid;
    const link = (await create(linkBody({ template_uuid: locked, name: 'Locked' }))).json().data;
    await t.database.pool.query(
      `INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status)
       SELECT team_id, id, 'Live', sender, now(), now() + interval '1 day', 1 FROM templates WHERE uuid = $1`,
      [locked],
    );
    expect(
      (await t.request('PUT', `/api/2.0/links/${link.uuid}`, { token: owner.token, body: linkBody({ template_uuid: locked, name: 'Locked2' }) })).statusCode,
    ).toBe(423);
    expect((await t.request('DELETE', `/api/2.0/links/${link.uuid}`, { token: owner.token })).statusCode).toBe(423);
    expect((await create(linkBody({ template_uuid: locked, name: 'New' }))).statusCode).toBe(423);
  });

  it("never shows, edits or deletes another team's link", async () => {
    const link = (await create(linkBody({ name: 'Mine' }))).json().data;
    for (const [method, body] of [['GET'], ['PUT', linkBody({ name: 'Z' })], ['DELETE']] as const) {
      expect((await t.request(method, `/api/2.0/links/${link.uuid}`, { token: stranger.token, body })).statusCode).toBe(404);
    }
    expect((await t.request('GET', '/api/2.0/links/', { token: stranger.token })).json().meta.total).toBe(0);
  });
});
