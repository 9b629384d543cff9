import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
// Moved by hand: a row's updated_at comes from it.
const clock = createTestClock(new Date());
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  stranger = await t.user();
});
afterAll(() => t.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const valid = { name: 'Spring sale', body: 'Hi {{first_name}}, 20% off today: ::Shop::', sender: 'Acme' };

async function createTemplate(body: Record<string, unknown> = valid, user = owner) {
  const response = await t.request('POST', '/api/2.0/templates/', { token: user.token, body });
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

async function ownDomain(user = owner): Promise<string> {
  return (await t.request('GET', '/api/2.0/vanity-domains/', { token: user.token })).json().data.find((d: { is_default: boolean }) => d.is_default).uuid;
}

async function addLink(templateUuid: string, name = 'Shop', destination = 'https://shop.example.com/spring') {
  const response = await t.request('POST', '/api/2.0/links/', {
    token: owner.token,
    body: { template_uuid: templateUuid, vanity_domain_uuid: await ownDomain(), name, destination },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

/** A campaign that is sending locks its template (campaigns get their own API later; made directly here). */
async function sendingCampaignFor(templateUuid: string): Promise<void> {
  await t.database.pool.query(
    `INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status)
     SELECT team_id, id, 'Live', sender, now(), now() + interval '1 day', 1 FROM templates WHERE uuid = $1`,
    [templateUuid],
  );
}

describe('templates', () => {
  it('creates a template in the shape of docs/interface.md §2.2', async () => {
    const template = await createTemplate();
    expect(template).toEqual({
      uuid: expect.any(String),
      name: 'Spring sale',
      body: valid.body,
      links: [],
      is_locked: false,
      sender: 'Acme',
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect((await t.request('GET', `/api/2.0/templates/${template.uuid}`, { token: owner.token })).json().data).toEqual(template);
  });

  it.each([
    ['a 2-character sender', { ...valid, sender: 'AB' }, 'sender', 'The sender must be between 3 and 11 characters.'],
    ['a 12-character sender', { ...valid, sender: 'ABCDEFGHIJKL' }, 'sender', 'The sender must be between 3 and 11 characters.'],
    ['no body', { name: 'x', sender: 'Acme' }, 'body', 'The body field is required.'],
    ['a blank body', { ...valid, body: '   ' }, 'body', 'The body field is required.'],
    ['a body over 1,600 characters', { ...valid, body: 'a'.repeat(1601) }, 'body', 'The body may not be greater than 1600 characters.'],
    ['no name', { body: 'x', sender: 'Acme' }, 'name', 'The name field is required.'],
    ['force_utf8 as a string', { ...valid, force_utf8: 'yes' }, 'force_utf8', 'The force utf8 must be true or false.'],
  ])('refuses %s with 422', async (_case, body, field, message) => {
    const response = await t.request('POST', '/api/2.0/templates/', { token: owner.token, body });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors[field]).toEqual([message]);
  });

  it('counts the 1,600 limit in characters, so 1,600 emoji fit', async () => {
    await createTemplate({ ...valid, body: '🙂'.repeat(1600) });
  });

  it('strips what cannot be carried as text when force_utf8 is set, and only then', async () => {
    const dirty = 'Hello\u0000 \uFFFD world\uD800 🙂\n';
    const refused = await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { ...valid, body: dirty } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.errors.body).toEqual([
      'The body contains characters that cannot be stored. Remove them, or send force_utf8 to have them removed.',
    ]);
    expect((await createTemplate({ ...valid, body: 'Kept \uFFFD\u0007' })).body).toBe('Kept \uFFFD\u0007');
    expect((await createTemplate({ ...valid, body: dirty, force_utf8: true })).body).toBe('Hello  world 🙂\n');
    const nothingLeft = await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { ...valid, body: '\uFFFD\u0001', force_utf8: true } });
    expect(nothingLeft.statusCode).toBe(422);
  });

  it('edits a template and moves updated_at', async () => {
    const template = await createTemplate();
    clock.advance(3_600_000);
    const before = (await t.request('GET', `/api/2.0/templates/${template.uuid}`, { token: owner.token })).json().data;
    const response = await t.request('PUT', `/api/2.0/templates/${template.uuid}`, { token: owner.token, body: { ...valid, name: 'Summer sale' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.name).toBe('Summer sale');
    expect(response.json().data.updated_at > before.updated_at).toBe(true);
  });

  it('lists the links the body uses, and only those', async () => {
    const template = await createTemplate();
    const shop = await addLink(template.uuid, 'Shop');
    await addLink(template.uuid, 'Unused', 'https://example.com/unused');
    const shown = (await t.request('GET', `/api/2.0/templates/${template.uuid}`, { token: owner.token })).json().data;
    expect(shown.links).toEqual([shop]);
    const listed = (await t.request('GET', '/api/2.0/templates/?per_page=100', { token: owner.token }))
      .json()
      .data.find((x: { uuid: string }) => x.uuid === template.uuid);
    expect(listed.links).toEqual([shop]);
  });

  it('is locked while a sending campaign uses it: edits are refused with 423', async () => {
    const template = await createTemplate();
    await sendingCampaignFor(template.uuid);
    const shown = (await t.request('GET', `/api/2.0/templates/${template.uuid}`, { token: owner.token })).json().data;
    expect(shown.is_locked).toBe(true);
    const free = await createTemplate();
    const listed = (await t.request('GET', '/api/2.0/templates/?per_page=100', { token: owner.token })).json().data;
    expect(listed.find((x: { uuid: string }) => x.uuid === template.uuid).is_locked).toBe(true);
    expect(listed.find((x: { uuid: string }) => x.uuid === free.uuid).is_locked).toBe(false);
    const edit = await t.request('PUT', `/api/2.0/templates/${template.uuid}`, { token: owner.token, body: valid });
    expect(edit.statusCode).toBe(423);
    expect(edit.json().error.message).toBe('The template is used by a campaign that is sending; it cannot be changed until the campaign has finished.');
    const remove = await t.request('DELETE', `/api/2.0/templates/${template.uuid}`, { token: owner.token });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().error.message).toBe('The template is used by 1 campaign; it cannot be deleted.');
  });

  it('deletes a template that no campaign uses', async () => {
    const template = await createTemplate();
    expect((await t.request('DELETE', `/api/2.0/templates/${template.uuid}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.request('GET', `/api/2.0/templates/${template.uuid}`, { token: owner.token })).statusCode).toBe(404);
  });

  it("never shows, edits, previews or deletes another team's template", async () => {
    const template = await createTemplate();
    const url = `/api/2.0/templates/${template.uuid}`;
    for (const [method, path, body] of [
      ['GET', url],
      ['GET', `${url}/preview`],
      ['PUT', url, valid],
      ['DELETE', url],
    ] as const) {
      expect((await t.request(method, path, { token: stranger.token, body })).statusCode).toBe(404);
    }
    const encoding = await t.request('POST', '/api/2.0/templates/encoding', { token: stranger.token, body: { body: 'x', template_uuid: template.uuid } });
    expect(encoding.statusCode).toBe(422);
    expect(encoding.json().error.errors.template_uuid).toEqual(['The selected template uuid is invalid.']);
    expect((await t.request('GET', '/api/2.0/templates/', { token: stranger.token })).json().meta.total).toBe(0);
  });
});

describe('preview', () => {
  it('renders links as short links on their domain and fields without a contact as a blank, with warnings', async () => {
    const template = await createTemplate({ ...valid, body: 'Hi {{first_name}}! ::Shop:: ::Gone::' });
    const shop = await addLink(template.uuid, 'Shop');
    const response = await t.request('GET', `/api/2.0/templates/${template.uuid}/preview`, { token: owner.token });
    expect(response.statusCode).toBe(200);
    const preview = response.json().data;
    expect(preview.body).toMatch(new RegExp(`^Hi  ! ${TEST_PUBLIC_URL}/l/[0-9A-Za-z]{7}  $`));
    expect(preview.links).toEqual([shop]);
    expect(preview.phone_number).toBe('');
    expect(preview.warnings).toEqual([
      '::Gone:: names no link of this template; it will be sent as a blank space.',
      '{{first_name}} has no value without a contact; it shows as a blank space.',
    ]);
  });

  it('shows a fallback where a field has no value, and warns of nothing then', async () => {
    const template = await createTemplate({ ...valid, body: 'Hi {{first_name|there}}, {{city}}' });
    const preview = (await t.request('GET', `/api/2.0/templates/${template.uuid}/preview`, { token: owner.token })).json().data;
    expect(preview.body).toBe('Hi there,  ');
    expect(preview.warnings).toEqual(['{{city}} has no value without a contact; it shows as a blank space.']);
  });
});

describe('encoding', () => {
  const encoding = async (body: Record<string, unknown>) => {
    const response = await t.request('POST', '/api/2.0/templates/encoding', { token: owner.token, body });
    expect(response.statusCode).toBe(200);
    return response.json().data;
  };

  it('names GSM_7BIT, GSM_7BIT_EX and UTF16 with length, segments and per_segment', async () => {
    expect(await encoding({ body: 'Hello there' })).toEqual({ encoding: 'GSM_7BIT', length: 11, segments: 1, per_segment: 160, warnings: [] });
    expect(await encoding({ body: 'Only 5€' })).toMatchObject({ encoding: 'GSM_7BIT_EX', length: 8, segments: 1 });
    expect(await encoding({ body: 'Hi 🙂' })).toMatchObject({ encoding: 'UTF16', length: 5, segments: 1, per_segment: 70 });
    expect(await encoding({ body: 'a'.repeat(161) })).toMatchObject({ encoding: 'GSM_7BIT', length: 161, segments: 2, per_segment: 153 });
    expect(await encoding({ body: '“quoted”' + 'a'.repeat(63) })).toMatchObject({ encoding: 'UTF16', length: 71, segments: 2, per_segment: 67 });
  });

  it("counts a tracked link at its short-link length on the team's domain", async () => {
    const shortLink = `${TEST_PUBLIC_URL}/l/`.length + 7;
    expect(await encoding({ body: 'Go ::Shop::' })).toMatchObject({ length: 3 + shortLink });
  });

  it("checks links against a template's links, counting a missing one as the blank it becomes", async () => {
    const template = await createTemplate();
    await addLink(template.uuid, 'Shop');
    const result = await encoding({ body: '::Shop:: ::Nope::', template_uuid: template.uuid });
    expect(result.length).toBe(`${TEST_PUBLIC_URL}/l/`.length + 7 + 2);
    expect(result.warnings).toEqual(['::Nope:: names no link of this template; it will be sent as a blank space.']);
  });

  it('validates the request', async () => {
    const response = await t.request('POST', '/api/2.0/templates/encoding', { token: owner.token, body: {} });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({ body: ['The body field is required.'] });
  });
});
