import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
