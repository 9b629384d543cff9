/**
 * Members, invitations and accounts, counted where they land: e-mails at a real SMTP server (the
 * account mail worker sends the outbox through the same mailer reports use), sign-ins through the API.
 *
 * Seen red: with the admin lock in `members.repository.ts` `lockAdmins` turned into a plain count
 * (no FOR UPDATE), two admins demoting each other at once left the team with no admin; with
 * `markAccepted` removed from `accept`, the invitation link worked twice; with `revokeSessions`
 * removed from `changePassword`, the other session kept working; without `showMember` (the member's
 * GET the audit trail reads before a change), a role change was recorded without the role before;
 * without `revokePersonalTokens` in auth.service.ts, the API tokens worked after a reset and after a
 * change that asked for their revocation.
 */
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../gateways/mail/mailer';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';
import { createAccountMailWorker } from '../account-mail/account-mail.worker';

const API = '/api/2.0';
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let sink: SmtpSink;
let admin: TestUser;
let worker: ReturnType<typeof createAccountMailWorker>;
let dataDir: string;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  sink = await startSmtpSink();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-members-'));
  worker = createAccountMailWorker({
    outbox: t.services.accountMail,
    mailer: createMailer({ smtpUrl: sink.url, outboxDir: path.join(dataDir, 'outbox'), from: 'Herald <team@herald.test>', log: () => {}, timeoutMs: 2000 }),
    clock,
    log: () => {},
    options: { retryBaseMs: 1000 },
  });
  admin = await t.user({ team: 'Acme Marketing' });
});
afterAll(async () => {
  await sink.close();
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** Sends what the outbox holds now; the messages the sink received for `to`. */
async function mailTo(to: string) {
  await worker.runOnce();
  return sink.messages.filter((message) => message.to.some((address) => address.toLowerCase() === to.toLowerCase()));
}
const linkIn = (text: string, page: string) => {
  const match = new RegExp(`${TEST_PUBLIC_URL}/${page}#([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${page} link in: ${text}`);
  return match[1]!;
};
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, body?: unknown) => t.request(method, `${API}${url}`, { token, body });
const signIn = (email: string, password: string) => call('POST', '/auth/login', undefined, { email, password });

async function memberOf(team: string, role: 'admin' | 'editor' | 'viewer') {
  const user = await t.user();
  await t.services.users.addToTeam(user.email, team, role);
  const team_ = (await t.services.teamsRepository.findByName(team))!;
  const id = (await t.services.usersRepository.findByEmail(user.email))!.id;
  return { ...user, token: (await t.services.tokens.issue(id, 'personal', 'test', { teamId: team_.id })).token };
}

describe('invitations', () => {
  it('e-mails a single-use link; a new person sets a name and password, joins, and signs in', async () => {
    const invited = await call('POST', '/team/invitations', admin.token, { email: 'new.person@example.com', role: 'editor' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().data).toMatchObject({ email: 'new.person@example.com', role: 'editor', expires_at: '2026-06-08 10:00:00' });
    const pending = await call('GET', '/team/invitations', admin.token);
    expect(pending.json().data.map((invitation: { email: string }) => invitation.email)).toEqual(['new.person@example.com']);

    const mails = await mailTo('new.person@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Acme Marketing');
    const secret = linkIn(mails[0]!.text, 'invitation');

    const preview = await call('GET', `/invitations/${secret}`);
    expect(preview.json().data).toEqual({
      team_name: 'Acme Marketing',
      email: 'new.person@example.com',
      role: 'editor',
      existing_user: false,
      expires_at: '2026-06-08 10:00:00',
    });

    // A new person must choose a name and a long enough password.
    const missing = await call('POST', '/invitations/accept', undefined, { token: secret });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().error.errors).sort()).toEqual(['name', 'password']);
    const short = await call('POST', '/invitations/accept', undefined, { token: secret, name: 'New Person', password: 'eleven-char' });
    expect(short.json().error.errors.password).toEqual(['The password must be at least 12 characters.']);

    const accepted = await call('POST', '/invitations/accept', undefined, { token: secret, name: 'New Person', password: 'a-long-new-password' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data).toEqual({ email: 'new.person@example.com', team: { uuid: admin.teamUuid, name: 'Acme Marketing', role: 'editor' } });

    const session = await signIn('new.person@example.com', 'a-long-new-password');
    expect(session.statusCode).toBe(200);
    expect(session.json().data.user.current_team).toEqual({ uuid: admin.teamUuid, name: 'Acme Marketing', role: 'editor' });

    // Used once: the link is gone, and so is the pending invitation.
    expect((await call('POST', '/invitations/accept', undefined, { token: secret, name: 'Again', password: 'a-long-new-password' })).statusCode).toBe(404);
    expect((await call('GET', `/invitations/${secret}`)).statusCode).toBe(404);
    expect((await call('GET', '/team/invitations', admin.token)).json().data).toEqual([]);
    const members = await call('GET', '/team/members', session.json().data.token);
    expect(members.json().data.map((member: { email: string; role: string }) => [member.email, member.role])).toContainEqual([
      'new.person@example.com',
      'editor',
    ]);
  });

  it('lets someone with an account join with the link alone', async () => {
    const other = await t.user({ team: 'Elsewhere Ltd' });
    await call('POST', '/team/invitations', admin.token, { email: other.email.toUpperCase(), role: 'viewer' });
    const secret = linkIn((await mailTo(other.email.toUpperCase()))[0]!.text, 'invitation');
    expect((await call('GET', `/invitations/${secret}`)).json().data.existing_user).toBe(true);
    expect((await call('POST', '/invitations/accept', undefined, { token: secret })).statusCode).toBe(200);
    const me = await signIn(other.email, other.password);
    expect(me.json().data.user.teams.map((team: { name: string; role: string }) => [team.name, team.role])).toContainEqual(['Acme Marketing', 'viewer']);
  });

  it('refuses to invite a member, replaces an earlier link, and lets an admin withdraw one', async () => {
    const refused = await call('POST', '/team/invitations', admin.token, { email: admin.email, role: 'viewer' });
    expect(refused.json().error.errors).toEqual({ email: ['This address is already a member of the team.'] });
    expect((await call('POST', '/team/invitations', admin.token, { email: 'nope', role: 'boss' })).json().error.errors).toEqual({
      email: ['The email must be a valid email address.'],
      role: ['The role must be admin, editor or viewer.'],
    });

    await call('POST', '/team/invitations', admin.token, { email: 'twice@example.com', role: 'viewer' });
    const first = linkIn((await mailTo('twice@example.com'))[0]!.text, 'invitation');
    const again = await call('POST', '/team/invitations', admin.token, { email: 'twice@example.com', role: 'editor' });
    const second = linkIn((await mailTo('twice@example.com'))[1]!.text, 'invitation');
    expect((await call('GET', `/invitations/${first}`)).statusCode).toBe(404);
    expect((await call('GET', `/invitations/${second}`)).json().data.role).toBe('editor');

    expect((await call('DELETE', `/team/invitations/${again.json().data.uuid}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/invitations/${second}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/team/invitations/${again.json().data.uuid}`, admin.token)).statusCode).toBe(404);
  });

  it('expires a link after 7 days', async () => {
    await call('POST', '/team/invitations', admin.token, { email: 'late@example.com', role: 'viewer' });
    const secret = linkIn((await mailTo('late@example.com'))[0]!.text, 'invitation');
    clock.advance(7 * 86_400_000 + 1000);
    try {
      expect((await call('POST', '/invitations/accept', undefined, { token: secret, name: 'Late', password: 'a-long-new-password' })).statusCode).toBe(404);
    } finally {
      clock.advance(-(7 * 86_400_000 + 1000));
    }
  });

  it('keeps an e-mail the mail server refused, and sends it once it accepts', async () => {
    sink.refuseNext(1);
    await call('POST', '/team/invitations', admin.token, { email: 'patient@example.com', role: 'viewer' });
    expect(await mailTo('patient@example.com')).toHaveLength(0);
    clock.advance(1500); // past the first back-off
    expect(await mailTo('patient@example.com')).toHaveLength(1);
    expect(await mailTo('patient@example.com')).toHaveLength(1);
    const stored = await t.database.pool.query(`SELECT body, attempts FROM account_emails WHERE to_address = 'patient@example.com'`);
    // Sent: its body (a single-use link) is not kept.
    expect(stored.rows).toEqual([{ body: '', attempts: 2 }]);
  });
});

describe('members', () => {
  it('lists members with their role, and lets an admin change a role', async () => {
    const editor = await memberOf('Acme Marketing', 'editor');
    const viewer = await memberOf('Acme Marketing', 'viewer');
    const list = await call('GET', '/team/members?per_page=100', viewer.token);
    expect(list.statusCode).toBe(200);
    const row = list.json().data.find((member: { email: string }) => member.email === editor.email);
    expect(row).toMatchObject({ uuid: editor.userUuid, role: 'editor', joined_at: expect.any(String), last_seen_at: expect.any(String) });

    expect((await call('GET', `/team/members/${editor.userUuid}`, viewer.token)).json().data).toMatchObject({ uuid: editor.userUuid, role: 'editor' });
    const changed = await call('PUT', `/team/members/${editor.userUuid}`, admin.token, { role: 'viewer' });
    expect(changed.json().data.role).toBe('viewer');
    // The audit log says which role the member had, not only the new one.
    const [event] = (await call('GET', `/audit-events?action=updateMember&resource_uuid=${editor.userUuid}`, admin.token)).json().data;
    expect(event).toMatchObject({ resource_type: 'member', changes: { role: { before: 'editor', after: 'viewer' } } });
    // The new role holds at once, for the tokens the member already has.
    expect((await call('POST', '/templates/', editor.token, { name: 'x', body: 'y', sender: 'Acme' })).statusCode).toBe(403);
    expect((await call('PUT', `/team/members/${editor.userUuid}`, viewer.token, { role: 'admin' })).statusCode).toBe(403);
    expect((await call('PUT', `/team/members/00000000-0000-4000-8000-000000000000`, admin.token, { role: 'viewer' })).statusCode).toBe(404);
  });

  it('never leaves a team without an admin, even when two admins demote each other at once', async () => {
    const team = 'Two Admins Co';
    const first = await t.user({ team });
    const lonely = await call('PUT', `/team/members/${first.userUuid}`, first.token, { role: 'editor' });
    expect(lonely.statusCode).toBe(409);
    expect(lonely.json().error.message).toBe('A team needs at least one admin: make another member an admin first.');
    expect((await call('DELETE', `/team/members/${first.userUuid}`, first.token)).statusCode).toBe(409);

    // Several teams of two admins, each demoting the other at the same moment: one wins in each.
    const pairs = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const name = `${team} ${i}`;
        const one = await t.user({ team: name });
        return { name, one, two: await memberOf(name, 'admin') };
      }),
    );
    const results = await Promise.all(
      pairs.flatMap(({ one, two }) => [
        call('PUT', `/team/members/${two.userUuid}`, one.token, { role: 'editor' }),
        call('PUT', `/team/members/${one.userUuid}`, two.token, { role: 'editor' }),
      ]),
    );
    // In each pair one demotion wins. The other is refused: 409 when both checked their role before
    // either committed, 403 when the winner committed first (its author is then no longer an admin).
    pairs.forEach((_, i) => {
      const codes = [results[2 * i]!.statusCode, results[2 * i + 1]!.statusCode].sort();
      expect(codes[0]).toBe(200);
      expect([403, 409]).toContain(codes[1]);
    });
    const admins = await t.database.pool.query(
      `SELECT t.name, count(m.user_id) FILTER (WHERE m.role = 'admin')::int AS n FROM teams t JOIN memberships m ON m.team_id = t.id WHERE t.name LIKE $1 GROUP BY t.name`,
      [`${team} %`],
    );
    expect(admins.rows.map((row) => row.n)).toEqual(pairs.map(() => 1));
  });

  it("removes a member: their tokens of the team stop at once, their other team's do not", async () => {
    const leaving = await memberOf('Acme Marketing', 'editor');
    expect((await call('GET', '/users/me', leaving.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/team/members/${leaving.userUuid}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', '/users/me', leaving.token)).statusCode).toBe(401);
    const own = await signIn(leaving.email, leaving.password);
    expect(own.json().data.user.teams.map((team: { name: string }) => team.name)).not.toContain('Acme Marketing');
  });
});

describe('accounts', () => {
  it('changes the name, and the password given the current one, signing out the other sessions', async () => {
    const user = await t.user({ password: 'first-password-1' });
    const here = (await signIn(user.email, 'first-password-1')).json().data.token;
    const there = (await signIn(user.email, 'first-password-1')).json().data.token;

    const renamed = await call('PUT', '/users/me', here, { name: '  Ada Lovelace ' });
    expect(renamed.json().data.name).toBe('Ada Lovelace');
    expect(renamed.json().data.phone_number).toBeNull();
    // Her own number, for test sends: national numbers in the default country, '' clears it.
    expect((await call('PUT', '/users/me', here, { name: 'Ada Lovelace', phone_number: '07700 900123' })).json().data.phone_number).toBe('447700900123');
    expect((await call('PUT', '/users/me', here, { name: 'Ada Lovelace', phone_number: 'call me' })).json().error.errors).toEqual({
      phone_number: ['The phone number is not a phone number.'],
    });
    expect((await call('GET', '/users/me', here)).json().data.phone_number).toBe('447700900123');
    expect((await call('PUT', '/users/me', here, { name: 'Ada Lovelace' })).json().data.phone_number).toBe('447700900123');
    expect((await call('PUT', '/users/me', here, { name: 'Ada Lovelace', phone_number: '' })).json().data.phone_number).toBeNull();

    const wrong = await call('PUT', '/users/me/password', here, { current_password: 'not-it', new_password: 'second-password-2' });
    expect(wrong.json().error.errors).toEqual({ current_password: ['The current password is not correct.'] });
    const short = await call('PUT', '/users/me/password', here, { current_password: 'first-password-1', new_password: 'short' });
    expect(short.json().error.errors).toEqual({ new_password: ['The new password must be at least 12 characters.'] });

    expect((await call('PUT', '/users/me/password', here, { current_password: 'first-password-1', new_password: 'second-password-2' })).statusCode).toBe(204);
    expect((await call('GET', '/users/me', here)).statusCode).toBe(200);
    expect((await call('GET', '/users/me', there)).statusCode).toBe(401);
    expect((await call('GET', '/users/me', user.token)).statusCode).toBe(200); // an API token stays
    expect((await signIn(user.email, 'first-password-1')).statusCode).toBe(401);
    expect((await signIn(user.email, 'second-password-2')).statusCode).toBe(200);

    // Asked for, a change revokes every API token of the account too; the session it is made with stays.
    const revoking = { current_password: 'second-password-2', new_password: 'third-password-3', revoke_api_tokens: true };
    expect((await call('PUT', '/users/me/password', here, revoking)).statusCode).toBe(204);
    expect((await call('GET', '/users/me', user.token)).statusCode).toBe(401);
    expect((await call('GET', '/users/me', here)).statusCode).toBe(200);
    const notBoolean = await call('PUT', '/users/me/password', here, {
      current_password: 'third-password-3',
      new_password: 'fourth-password-4',
      revoke_api_tokens: 'yes',
    });
    expect(notBoolean.json().error.errors).toEqual({ revoke_api_tokens: ['The revoke api tokens field must be true or false.'] });
  });

  it('resets a forgotten password with a single-use link valid an hour, and answers the same for unknown addresses', async () => {
    const user = await t.user({ password: 'forgotten-password' });
    const session = (await signIn(user.email, 'forgotten-password')).json().data.token;

    const unknown = await call('POST', '/auth/password-reset', undefined, { email: 'nobody@example.com' });
    const known = await call('POST', '/auth/password-reset', undefined, { email: user.email });
    expect([unknown.statusCode, known.statusCode]).toEqual([202, 202]);
    expect(unknown.body).toBe(known.body);
    // The answer leaves before the address is looked up; the e-mail is queued just after.
    await t.services.auth.settled();
    expect(await mailTo('nobody@example.com')).toHaveLength(0);
    const mails = await mailTo(user.email);
    expect(mails).toHaveLength(1);
    const secret = linkIn(mails[0]!.text, 'reset-password');

    const short = await call('POST', '/auth/password-reset/confirm', undefined, { token: secret, password: 'short' });
    expect(short.statusCode).toBe(422);
    expect((await call('POST', '/auth/password-reset/confirm', undefined, { token: secret, password: 'remembered-password' })).statusCode).toBe(204);
    expect((await call('GET', '/users/me', session)).statusCode).toBe(401); // every session signed out
    expect((await call('GET', '/users/me', user.token)).statusCode).toBe(401); // and, by default after a reset, every API token
    expect((await signIn(user.email, 'remembered-password')).statusCode).toBe(200);
    expect((await call('POST', '/auth/password-reset/confirm', undefined, { token: secret, password: 'third-password-3' })).statusCode).toBe(404);

    // A link older than an hour does nothing.
    await call('POST', '/auth/password-reset', undefined, { email: user.email });
    await t.services.auth.settled();
    const late = linkIn((await mailTo(user.email))[1]!.text, 'reset-password');
    clock.advance(3_600_000 + 1000);
    try {
      expect((await call('POST', '/auth/password-reset/confirm', undefined, { token: late, password: 'third-password-3' })).statusCode).toBe(404);
    } finally {
      clock.advance(-(3_600_000 + 1000));
    }
    expect((await signIn(user.email, 'remembered-password')).statusCode).toBe(200);

    // `revoke_api_tokens: false` keeps the account's API tokens.
    const kept = (await t.services.tokens.issue((await t.services.usersRepository.findByEmail(user.email))!.id, 'personal', 'kept')).token;
    await call('POST', '/auth/password-reset', undefined, { email: user.email });
    await t.services.auth.settled();
    const keeping = linkIn((await mailTo(user.email))[2]!.text, 'reset-password');
    expect(
      (await call('POST', '/auth/password-reset/confirm', undefined, { token: keeping, password: 'remembered-password', revoke_api_tokens: false })).statusCode,
    ).toBe(204);
    expect((await call('GET', '/users/me', kept)).statusCode).toBe(200);
  });
});

const DEFAULT_SETTINGS = {
  confirm_threshold: 1000,
  price_per_segment: null,
  currency: 'EUR',
  time_zone: 'Europe/London',
  quiet_hours: null,
  default_country: 'GB',
  opt_out_reply: 'You will receive no more messages from us. Reply START to subscribe again.',
  opt_in_reply: 'You are subscribed again. Reply STOP to unsubscribe.',
  help_reply: 'Reply STOP to unsubscribe.',
  test_numbers: [],
  click_window_days: 5,
  view_window_hours: 24,
  frequency_cap: null,
  double_opt_in: false,
};

describe('team settings', () => {
  it('reads the approval threshold for every member; only an admin changes it', async () => {
    const viewer = await memberOf('Acme Marketing', 'viewer');
    expect((await call('GET', '/team/settings', viewer.token)).json().data).toEqual({ name: 'Acme Marketing', approval_threshold: null, ...DEFAULT_SETTINGS });
    expect((await call('PUT', '/team/settings', viewer.token, { approval_threshold: 5 })).statusCode).toBe(403);
    expect((await call('PUT', '/team/settings', admin.token, { approval_threshold: -1 })).json().error.errors).toEqual({
      approval_threshold: ['The approval threshold must be at least 0.'],
    });
    expect((await call('PUT', '/team/settings', admin.token, { approval_threshold: 5 })).json().data.approval_threshold).toBe(5);
    expect((await call('PUT', '/team/settings', admin.token, { approval_threshold: null })).json().data.approval_threshold).toBeNull();
  });

  it('renames the team, keeping names unique regardless of case', async () => {
    await t.user({ team: 'Taken Name' });
    expect((await call('PUT', '/team/settings', admin.token, { name: 'taken name' })).json().error.errors).toEqual({
      name: ['The name has already been taken.'],
    });
    const renamed = await call('PUT', '/team/settings', admin.token, { name: ' Acme Growth ', approval_threshold: 7 });
    expect(renamed.json().data).toEqual({ name: 'Acme Growth', approval_threshold: 7, ...DEFAULT_SETTINGS });
    // A field left out keeps its value.
    expect((await call('PUT', '/team/settings', admin.token, { name: 'Acme Marketing' })).json().data).toEqual({
      name: 'Acme Marketing',
      approval_threshold: 7,
      ...DEFAULT_SETTINGS,
    });
    await call('PUT', '/team/settings', admin.token, { approval_threshold: null });
  });

  it('keeps the review, cost, quiet hours and reply settings, each checked', async () => {
    const changed = await call('PUT', '/team/settings', admin.token, {
      confirm_threshold: 250,
      price_per_segment: 0.04125,
      currency: 'GBP',
      time_zone: 'america/new_york',
      quiet_hours: { start: '21:00', end: '08:00' },
      opt_out_reply: '  Unsubscribed. ',
      help_reply: '',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toEqual({
      ...DEFAULT_SETTINGS,
      name: 'Acme Marketing',
      approval_threshold: null,
      confirm_threshold: 250,
      price_per_segment: 0.04125,
      currency: 'GBP',
      time_zone: 'America/New_York',
      quiet_hours: { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] },
      opt_out_reply: 'Unsubscribed.',
      help_reply: '',
    });
    expect((await call('GET', '/team/settings', admin.token)).json().data).toEqual(changed.json().data);

    const refused = await call('PUT', '/team/settings', admin.token, {
      confirm_threshold: 1.5,
      price_per_segment: 0.000001,
      currency: 'euro',
      time_zone: 'Mars/Olympus',
      quiet_hours: { start: '25:00', end: '08:00', days: ['someday'] },
      opt_in_reply: 'x'.repeat(613),
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().error.errors).sort()).toEqual(
      ['confirm_threshold', 'currency', 'opt_in_reply', 'price_per_segment', 'quiet_hours.days.0', 'quiet_hours.start', 'time_zone'].sort(),
    );
    expect((await call('PUT', '/team/settings', admin.token, { quiet_hours: { start: '08:00', end: '08:00' } })).json().error.errors).toEqual({
      'quiet_hours.end': ['The quiet hours must end at another time than they start.'],
    });
    // Nothing of a refused change was written.
    expect((await call('GET', '/team/settings', admin.token)).json().data).toEqual(changed.json().data);

    const restored = await call('PUT', '/team/settings', admin.token, {
      ...DEFAULT_SETTINGS,
      time_zone: 'Europe/London',
    });
    expect(restored.json().data).toEqual({ name: 'Acme Marketing', approval_threshold: null, ...DEFAULT_SETTINGS });
  });
});
