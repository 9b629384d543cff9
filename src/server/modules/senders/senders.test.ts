import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
// Moved by hand: a row's updated_at comes from it.
const clock = createTestClock(new Date());
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Acme & Sons Trading Ltd' });
  stranger = await t.user({ team: 'Other Co' });
});
afterAll(() => t.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function createSender(user: TestUser, sender: string) {
  const response = await t.request('POST', '/api/2.0/senders/', { token: user.token, body: { sender } });
  expect(response.statusCode).toBe(201);
  return response.json().data as { uuid: string; sender: string; created_at: string; updated_at: string };
}

describe('senders', () => {
  it('gives every new team 88440 and its name stripped to letters and digits, at most 11 characters', async () => {
    const response = await t.request('GET', '/api/2.0/senders/', { token: owner.token });
    expect(response.statusCode).toBe(200);
    expect(
      response
        .json()
        .data.map((s: { sender: string }) => s.sender)
        .sort(),
    ).toEqual(['88440', 'AcmeSonsTra']);
  });

  it('creates a sender in the shape of docs/interface.md §2.6', async () => {
    const response = await t.request('POST', '/api/2.0/senders/', { token: owner.token, body: { sender: 'Herald' } });
    expect(response.statusCode).toBe(201);
    const sender = response.json().data;
    expect(sender).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      team_id: '',
      sender: 'Herald',
      status: '1',
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      links: [{ rel: 'self', uri: `${TEST_PUBLIC_URL}/api/2.0/senders/${sender.uuid}` }],
    });
    const shown = await t.request('GET', `/api/2.0/senders/${sender.uuid}`, { token: owner.token });
    expect(shown.json()).toEqual({ data: sender });
  });

  it.each([
    ['two characters', 'AB', 'The sender must be between 3 and 11 characters.'],
    ['twelve characters', 'ABCDEFGHIJKL', 'The sender must be between 3 and 11 characters.'],
    ['only spaces', '     ', 'The sender must be between 3 and 11 characters.'],
    ['an emoji', 'Shop🙂', 'The sender may only contain letters, digits, spaces and . - _ &.'],
  ])('refuses a sender of %s with 422 naming the rule', async (_case, sender, message) => {
    const response = await t.request('POST', '/api/2.0/senders/', { token: owner.token, body: { sender } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: { code: 422, http_code: 422, message: 'The given data was invalid.', errors: { sender: [message] }, request_id: expect.any(String) },
    });
  });

  it('accepts exactly 3 and exactly 11 characters', async () => {
    await createSender(owner, 'ABC');
    await createSender(owner, 'ABCDEFGHIJK');
  });

  it('says which field is missing or of the wrong type', async () => {
    const missing = await t.request('POST', '/api/2.0/senders/', { token: owner.token, body: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.errors).toEqual({ sender: ['The sender field is required.'] });
    const wrongType = await t.request('POST', '/api/2.0/senders/', { token: owner.token, body: { sender: 12345 } });
    expect(wrongType.json().error.errors).toEqual({ sender: ['The sender must be a string.'] });
  });

  it('refuses a sender the team already has, but another team may use it', async () => {
    await createSender(owner, 'Unique1');
    const duplicate = await t.request('POST', '/api/2.0/senders/', { token: owner.token, body: { sender: 'Unique1' } });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().error.errors).toEqual({ sender: ['The sender has already been taken.'] });
    await createSender(stranger, 'Unique1');
  });

  it('edits a sender and moves updated_at', async () => {
    const sender = await createSender(owner, 'Before');
    clock.advance(86_400_000);
    const before = (await t.request('GET', `/api/2.0/senders/${sender.uuid}`, { token: owner.token })).json().data;
    const response = await t.request('PUT', `/api/2.0/senders/${sender.uuid}`, { token: owner.token, body: { sender: 'After' } });
    expect(response.statusCode).toBe(200);
    const after = response.json().data;
    expect(after.sender).toBe('After');
    expect(after.created_at).toBe(before.created_at);
    expect(after.updated_at > before.updated_at).toBe(true);
  });

  it('applies the same rules to an edit', async () => {
    const sender = await createSender(owner, 'EditRule');
    const response = await t.request('PUT', `/api/2.0/senders/${sender.uuid}`, { token: owner.token, body: { sender: 'X' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors.sender).toEqual(['The sender must be between 3 and 11 characters.']);
    const duplicate = await t.request('PUT', `/api/2.0/senders/${sender.uuid}`, { token: owner.token, body: { sender: '88440' } });
    expect(duplicate.json().error.errors.sender).toEqual(['The sender has already been taken.']);
  });

  it('deletes a sender: 204 without a body, then 404', async () => {
    const sender = await createSender(owner, 'Doomed');
    const response = await t.request('DELETE', `/api/2.0/senders/${sender.uuid}`, { token: owner.token });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const again = await t.request('GET', `/api/2.0/senders/${sender.uuid}`, { token: owner.token });
    expect(again.statusCode).toBe(404);
  });

  it('lists newest first', async () => {
    const first = await createSender(stranger, 'Older');
    const second = await createSender(stranger, 'Newer');
    const list = (await t.request('GET', '/api/2.0/senders/', { token: stranger.token })).json().data as Array<{ uuid: string }>;
    expect(list.findIndex((s) => s.uuid === second.uuid)).toBeLessThan(list.findIndex((s) => s.uuid === first.uuid));
  });

  it("never shows, edits, deletes or lists another team's sender", async () => {
    const secret = await createSender(owner, 'Secret');
    const url = `/api/2.0/senders/${secret.uuid}`;
    for (const [method, body] of [['GET'], ['PUT', { sender: 'Stolen' }], ['DELETE']] as const) {
      const response = await t.request(method, url, { token: stranger.token, body });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe(404);
    }
    const list = (await t.request('GET', '/api/2.0/senders/?per_page=100', { token: stranger.token })).json().data as Array<{ sender: string }>;
    expect(list.map((s) => s.sender)).not.toContain('Secret');
    expect((await t.request('GET', url, { token: owner.token })).json().data.sender).toBe('Secret');
  });
});

// Issue 32: senders are a list. An editor sends only as one of the team's senders or 88440 (422
// naming `sender` otherwise); an admin may use a new one, which joins the list. Seen red with the
// rule's check removed from templates and campaigns (the editor's "HSBC" answered 201).
describe('who may send as what', () => {
  let editorToken: string;
  let template: string;
  let group: string;
  const campaign = (sender: string) => ({
    name: 'Sale',
    sender,
    scheduled_send_date: '2099-06-02 09:00:00',
    expiry_date: '2099-06-03 09:00:00',
    included_contact_groups: [group],
    excluded_contact_groups: [],
    template_uuid: template,
  });
  const listed = async () =>
    ((await t.request('GET', '/api/2.0/senders/?per_page=100', { token: owner.token })).json().data as Array<{ sender: string }>).map((s) => s.sender);
  const refusal = { sender: ["The sender must be one of the team's senders or 88440. Ask an admin to add it under Senders."] };

  beforeAll(async () => {
    const member = await t.user();
    await t.services.users.addToTeam(member.email, 'Acme & Sons Trading Ltd', 'editor');
    const userId = (await t.services.usersRepository.findByEmail(member.email))!.id;
    const teamId = (await t.services.teamsRepository.findByUuid(owner.teamUuid))!.id;
    editorToken = (await t.services.tokens.issue(userId, 'personal', 'editor', { teamId })).token;
    template = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'T', body: 'Hello', sender: '88440' } })).json().data.uuid;
    group = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name: 'G' } })).json().data.uuid;
  });

  it("refuses an editor's template, campaign and test send as a sender the team does not have, naming sender; nothing is written", async () => {
    const before = (await t.database.pool.query('SELECT (SELECT count(*) FROM templates) + (SELECT count(*) FROM campaigns) AS n')).rows[0].n;
    const attempts = [
      ['POST', '/api/2.0/templates/', { name: 'Bank', body: 'Your account', sender: 'HSBC' }],
      ['PUT', `/api/2.0/templates/${template}`, { name: 'T', body: 'Hello', sender: 'HSBC' }],
      ['POST', '/api/2.0/campaigns/', campaign('HSBC')],
      ['POST', '/api/2.0/campaigns/send-test', { ...campaign('HSBC'), scheduled_send_date: '2099-06-02 09:00:00', contact_number: '+447700900123' }],
    ] as const;
    for (const [method, url, body] of attempts) {
      const response = await t.request(method, url, { token: editorToken, body });
      expect(response.statusCode, `${method} ${url}`).toBe(422);
      expect(response.json().error).toMatchObject({ code: 422, message: 'The given data was invalid.', errors: refusal });
    }
    const after = (await t.database.pool.query('SELECT (SELECT count(*) FROM templates) + (SELECT count(*) FROM campaigns) AS n')).rows[0].n;
    expect(after).toBe(before);
    expect(await listed()).not.toContain('HSBC');
  });

  it('lets an editor use 88440 and the senders on the list', async () => {
    const shortCode = await t.request('POST', '/api/2.0/templates/', { token: editorToken, body: { name: 'Short', body: 'Hi', sender: '88440' } });
    expect(shortCode.statusCode).toBe(201);
    const named = await t.request('POST', '/api/2.0/campaigns/', { token: editorToken, body: campaign('AcmeSonsTra') });
    expect(named.statusCode, named.body).toBe(201);
  });

  it("lets an admin use a new sender, which joins the team's list (then editors may use it)", async () => {
    expect(await listed()).not.toContain('NewBrand');
    const created = await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'New', body: 'Hi', sender: 'NewBrand' } });
    expect(created.statusCode).toBe(201);
    expect((await listed()).filter((s) => s === 'NewBrand')).toEqual(['NewBrand']);
    const byEditor = await t.request('POST', '/api/2.0/campaigns/', { token: editorToken, body: campaign('NewBrand') });
    expect(byEditor.statusCode, byEditor.body).toBe(201);
    // Used again by the admin: still one row.
    expect((await t.request('POST', '/api/2.0/campaigns/', { token: owner.token, body: campaign('NewBrand') })).statusCode).toBe(201);
    expect((await listed()).filter((s) => s === 'NewBrand')).toEqual(['NewBrand']);
  });

  it('gives the refusal over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/2.0`;
    const response = await fetch(`${base}/templates/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editorToken}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ name: 'Bank', body: 'Your account', sender: 'HSBC' }),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).error.errors).toEqual(refusal);
  });
});
