/**
 * Approvals, counted at the carrier: an engine ticks over a counting gateway, and a campaign waiting
 * for approval hands nothing over, even past its send time, until another admin approves it.
 * Approvers are told by e-mail, counted at a real SMTP server.
 *
 * Seen red: with the approval condition removed from the engine's `startDue` (engine/store/start.ts),
 * the editor's 100,000-recipient campaign started on the first tick (the gateway counted its first
 * messages); with the requester check removed from `decide`, the requesting admin's approval was 200.
 * Approvals that hold (issue 32): without the recount in `startDue` (`heldForApproval`) both grown
 * groups' 32 numbers reached the gateway; without `tellDecision` no decision e-mail reached the
 * editor; without `checkTestNumbers` an editor's send-test to a stranger's number was 201.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { createMailer } from '../../gateways/mail/mailer';
import { createSimulatorGateway } from '../../gateways/sms/simulator';
import { countingGateway } from '../../testing/counting-gateway';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';
import { createAccountMailWorker } from '../account-mail/account-mail.worker';

const API = '/api/2.0';
// Europe/London in June: UTC+1.
const clock = createTestClock('2026-06-01T09:00:00Z');
const TEAM = 'Approving Co';
let t: TestApp;
let sink: SmtpSink;
let dataDir: string;
let boss: TestUser; // the admin who approves
let otherAdmin: TestUser & { token: string };
let editor: TestUser & { token: string };
let template: string;
let everyone: string; // 100,000 numbers
let few: string; // 3 numbers

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) => t.request(method, `${API}${url}`, { token, body });

async function memberOf(role: 'admin' | 'editor' | 'viewer') {
  const user = await t.user();
  await t.services.users.addToTeam(user.email, TEAM, role);
  const team = (await t.services.teamsRepository.findByName(TEAM))!;
  const id = (await t.services.usersRepository.findByEmail(user.email))!.id;
  return { ...user, token: (await t.services.tokens.issue(id, 'personal', 'test', { teamId: team.id })).token };
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  sink = await startSmtpSink();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-approvals-'));
  boss = await t.user({ team: TEAM });
  otherAdmin = await memberOf('admin');
  editor = await memberOf('editor');
  template = (await call('POST', '/templates/', boss.token, { name: 'Sale', body: 'Sale today', sender: 'Acme' })).json().data.uuid;
  everyone = (await call('POST', '/contact-groups/', boss.token, { name: 'Everyone' })).json().data.uuid;
  await t.database.pool.query(
    `INSERT INTO contacts (contact_group_id, phone_number)
     SELECT g.id, '+447700' || lpad(i::text, 6, '0') FROM contact_groups g, generate_series(0, 99999) i WHERE g.uuid = $1`,
    [everyone],
  );
  await t.database.pool.query(`UPDATE contact_groups SET contact_count = 100000 WHERE uuid = $1`, [everyone]);
  few = (await call('POST', '/contact-groups/', boss.token, { name: 'Few' })).json().data.uuid;
  await call('PUT', `/contact-groups/${few}/add-contacts`, boss.token, {
    contacts: ['07700900401', '07700900402', '07700900403'].map((phone_number) => ({ phone_number })),
  });
});
afterAll(async () => {
  await sink.close();
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const campaignBody = (group: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Big sale',
  sender: 'Acme',
  scheduled_send_date: '2026-06-01 10:05:00',
  expiry_date: '2026-06-02 10:00:00',
  included_contact_groups: [group],
  excluded_contact_groups: [],
  template_uuid: template,
  ...overrides,
});

function engine() {
  const gateway = countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }));
  return {
    gateway,
    engine: createEngine({
      store: createEngineStore(t.database.db),
      gateway,
      clock,
      options: { tickMs: 1000, batchSize: 50, rateLimitPerSecond: 50, leaseMs: 30_000 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    }),
  };
}

async function mailsTo(to: string) {
  const worker = createAccountMailWorker({
    outbox: t.services.accountMail,
    mailer: createMailer({ smtpUrl: sink.url, outboxDir: path.join(dataDir, 'outbox'), from: 'Herald <team@herald.test>', log: () => {}, timeoutMs: 2000 }),
    clock,
    log: () => {},
  });
  while ((await worker.runOnce()) > 0); // the whole outbox, ten at a time
  return sink.messages.filter((message) => message.to.includes(to));
}

describe('approvals', () => {
  it("holds an editor's 100,000-recipient campaign until another admin approves it", async () => {
    expect((await call('PUT', '/team/settings', boss.token, { approval_threshold: 100_000 })).statusCode).toBe(200);
    const created = await call('POST', '/campaigns/', editor.token, campaignBody(everyone));
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json().data;
    expect(campaign.approval).toEqual({
      status: 'pending',
      requested_by: { uuid: editor.userUuid, name: expect.any(String) },
      requested_at: '2026-06-01 10:00:00',
      decided_by: null,
      decided_at: '',
      comment: '',
      recipients: null,
      notice: '',
    });

    // Both admins are asked, by e-mail, with a link to the campaign.
    for (const approver of [boss, otherAdmin]) {
      const mails = await mailsTo(approver.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Approval needed: Big sale');
      expect(mails[0]!.text).toContain(`/campaigns/${campaign.uuid}`);
    }
    expect(await mailsTo(editor.email)).toHaveLength(0);

    // Its send time passes: the engine hands nothing over.
    const { engine: sending, gateway } = engine();
    clock.set('2026-06-01T09:10:00Z');
    await sending.tick();
    await sending.tick();
    expect(gateway.ledger.total).toBe(0);
    expect((await call('GET', `/campaigns/${campaign.uuid}`, boss.token)).json().data.status).toBe(0);

    // The editor cannot approve (not an admin), nor can a viewer.
    expect((await call('PUT', `/campaigns/${campaign.uuid}/approve`, editor.token, {})).statusCode).toBe(403);

    const approved = await call('PUT', `/campaigns/${campaign.uuid}/approve`, boss.token, { comment: 'Go ahead' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.approval).toMatchObject({
      status: 'approved',
      decided_by: { uuid: boss.userUuid },
      decided_at: '2026-06-01 10:10:00',
      comment: 'Go ahead',
      recipients: 100_000,
    });
    // Decided once: a second decision is 409.
    expect((await call('PUT', `/campaigns/${campaign.uuid}/reject`, otherAdmin.token, {})).statusCode).toBe(409);

    // Approved after its send time: it starts on the next tick.
    await sending.tick();
    expect(gateway.ledger.total).toBe(50);
    expect((await call('GET', `/campaigns/${campaign.uuid}`, boss.token)).json().data.status).toBe(1);
  });

  it('refuses the admin who asked: another admin must decide', async () => {
    await call('PUT', '/team/settings', boss.token, { approval_threshold: 0 });
    clock.set('2026-06-01T09:00:00Z');
    const campaign = (await call('POST', '/campaigns/', otherAdmin.token, campaignBody(few, { name: 'Own campaign' }))).json().data;
    expect(campaign.approval.status).toBe('pending');
    const own = await call('PUT', `/campaigns/${campaign.uuid}/approve`, otherAdmin.token, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe('You asked for this approval: another admin of the team must approve or reject the campaign.');

    const rejected = await call('PUT', `/campaigns/${campaign.uuid}/reject`, boss.token, { comment: 'Wrong sender' });
    expect(rejected.json().data.approval).toMatchObject({ status: 'rejected', comment: 'Wrong sender' });
    const { engine: sending, gateway } = engine();
    clock.set('2026-06-01T09:10:00Z');
    await sending.tick();
    expect(gateway.ledger.byNumber.get('+447700900401')).toBeUndefined();
  });

  it('asks again after an edit, and needs nothing below the threshold or with none', async () => {
    clock.set('2026-06-01T09:00:00Z');
    await call('PUT', '/team/settings', boss.token, { approval_threshold: 3 });
    const campaign = (await call('POST', '/campaigns/', editor.token, campaignBody(few, { name: 'Edited' }))).json().data;
    expect(campaign.approval.status).toBe('pending');
    expect((await call('PUT', `/campaigns/${campaign.uuid}/approve`, boss.token, {})).json().data.approval.status).toBe('approved');
    const edited = await call('PUT', `/campaigns/${campaign.uuid}`, editor.token, campaignBody(few, { name: 'Edited again' }));
    expect(edited.json().data.approval).toMatchObject({ status: 'pending', decided_by: null, comment: '' });

    await call('PUT', '/team/settings', boss.token, { approval_threshold: 4 });
    const small = (await call('POST', '/campaigns/', editor.token, campaignBody(few, { name: 'Small' }))).json().data;
    expect(small.approval.status).toBe('not_required');
    await call('PUT', '/team/settings', boss.token, { approval_threshold: null });
    const free = (await call('POST', '/campaigns/', editor.token, campaignBody(everyone, { name: 'Free' }))).json().data;
    expect(free.approval.status).toBe('not_required');
    expect((await call('PUT', `/campaigns/${free.uuid}/approve`, boss.token, {})).statusCode).toBe(409);
  });

  it('keeps a campaign waiting for approval editable past its send time, and lists what waits', async () => {
    await call('PUT', '/team/settings', boss.token, { approval_threshold: 0 });
    clock.set('2026-06-01T09:00:00Z');
    const campaign = (await call('POST', '/campaigns/', editor.token, campaignBody(few, { name: 'Late' }))).json().data;
    clock.set('2026-06-01T09:30:00Z'); // past its send time (10:05 London) while it waits
    const shown = (await call('GET', `/campaigns/${campaign.uuid}`, editor.token)).json().data;
    expect(shown.is_locked).toBe(false);
    const moved = await call(
      'PUT',
      `/campaigns/${campaign.uuid}`,
      editor.token,
      campaignBody(few, { name: 'Late', scheduled_send_date: '2026-06-01 12:00:00' }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    const waiting = (await call('GET', '/campaigns/?approval=pending&per_page=100', boss.token)).json();
    expect(waiting.data.every((item: { approval: { status: string } }) => item.approval.status === 'pending')).toBe(true);
    expect(waiting.data.map((item: { uuid: string }) => item.uuid)).toContain(campaign.uuid);
    expect(waiting.meta.total).toBe(waiting.data.length);
    expect((await call('GET', '/campaigns/?approval=maybe', boss.token)).statusCode).toBe(422);
    await call('PUT', '/team/settings', boss.token, { approval_threshold: null });
  });

  it('refuses a campaign that would need an approval no other admin can give', async () => {
    const alone = await t.user({ team: 'One Admin Co' });
    await call('PUT', '/team/settings', alone.token, { approval_threshold: 0 });
    const soloTemplate = (await call('POST', '/templates/', alone.token, { name: 'Solo', body: 'Hi', sender: 'Acme' })).json().data.uuid;
    const soloGroup = (await call('POST', '/contact-groups/', alone.token, { name: 'Solo' })).json().data.uuid;
    const refused = await call('POST', '/campaigns/', alone.token, { ...campaignBody(soloGroup), template_uuid: soloTemplate });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.errors.included_contact_groups[0]).toContain('no admin other than you can give it');
  });
});

describe('approvals that hold when sending starts', () => {
  const numbersFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => `07700 901${String(first + i).padStart(3, '0')}`);
  /** Hand-overs at the gateway to the numbers 07700 901xxx from `first` on (the groups of these journeys). */
  const handedOver = (gateway: ReturnType<typeof engine>['gateway'], first: number, count: number) => {
    const wanted = new Set(numbersFrom(first, count).map((text) => `44${text.replace(/\D/g, '').slice(1)}`));
    return [...gateway.ledger.byNumber].filter(([number]) => wanted.has(number.replace(/^\+/, ''))).reduce((sum, [, times]) => sum + times, 0);
  };
  const groupOf = async (name: string, numbers: string[]) => {
    const uuid = (await call('POST', '/contact-groups/', editor.token, { name })).json().data.uuid as string;
    const added = await call('PUT', `/contact-groups/${uuid}/add-contacts`, editor.token, { contacts: numbers.map((phone_number) => ({ phone_number })) });
    expect(added.statusCode, added.body).toBe(200);
    return uuid;
  };
  const grow = async (group: string, numbers: string[]) => {
    const added = await call('PUT', `/contact-groups/${group}/add-contacts`, editor.token, { contacts: numbers.map((phone_number) => ({ phone_number })) });
    expect(added.statusCode, added.body).toBe(200);
  };
  /** Ticks, a second of the clock apart, until `done` or ten ticks. */
  const tickUntil = async (sending: ReturnType<typeof engine>['engine'], done: () => boolean) => {
    for (let i = 0; i < 10 && !done(); i++) {
      clock.advance(1000);
      await sending.tick();
    }
  };
  const subjectsTo = async (to: string, subject: string) => (await mailsTo(to)).filter((mail) => mail.subject === subject);

  beforeAll(async () => {
    // What earlier journeys left sending or scheduled is stopped, so these count only their own messages.
    const all = (await call('GET', '/campaigns/?per_page=100', boss.token)).json().data as Array<{ uuid: string; status: number; is_draft: boolean }>;
    for (const campaign of all.filter((item) => item.status < 2 && !item.is_draft)) await call('PUT', `/campaigns/${campaign.uuid}/stop`, boss.token);
    expect((await call('PUT', '/team/settings', boss.token, { approval_threshold: 5 })).statusCode).toBe(200);
  });

  it('holds a campaign whose group grew from 1 to 32 numbers after scheduling, until an admin approves the 32', async () => {
    clock.set('2026-06-02T09:00:00Z');
    const group = await groupOf('Grows', numbersFrom(1, 1));
    const created = await call(
      'POST',
      '/campaigns/',
      editor.token,
      campaignBody(group, { name: 'Grown', scheduled_send_date: '2026-06-02 10:05:00', expiry_date: '2026-06-03 10:00:00' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json().data;
    expect(campaign.approval).toMatchObject({ status: 'not_required', recipients: null, notice: '' });
    await grow(group, numbersFrom(2, 31));

    // Its send time comes: nothing reaches the gateway, and it waits for an approval again.
    const { engine: sending, gateway } = engine();
    clock.set('2026-06-02T09:10:00Z');
    await sending.tick();
    await tickUntil(sending, () => false);
    expect(handedOver(gateway, 1, 32)).toBe(0);
    const held = (await call('GET', `/campaigns/${campaign.uuid}`, editor.token)).json().data;
    expect(held.status).toBe(0);
    expect(held.approval).toMatchObject({ status: 'pending', requested_by: { uuid: editor.userUuid }, recipients: null });
    expect(held.approval.notice).toContain('32 recipients');
    expect(held.approval.notice).toContain("the team's approval threshold is 5");
    expect((await call('GET', '/campaigns/?approval=pending&per_page=100', boss.token)).json().data.map((item: { uuid: string }) => item.uuid)).toContain(
      campaign.uuid,
    );

    // The approvers are e-mailed, with the notice and a link; the editor is not asked.
    for (const approver of [boss, otherAdmin]) {
      const mails = await subjectsTo(approver.email, 'Approval needed again: Grown');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain('32 recipients');
      expect(mails[0]!.text).toContain(`/campaigns/${campaign.uuid}`);
    }
    expect(await subjectsTo(editor.email, 'Approval needed again: Grown')).toHaveLength(0);
    // The editor who made it cannot approve it; an admin can, and the approval records the 32.
    expect((await call('PUT', `/campaigns/${campaign.uuid}/approve`, editor.token, {})).statusCode).toBe(403);
    const approved = await call('PUT', `/campaigns/${campaign.uuid}/approve`, boss.token, { comment: 'All 32, fine' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.approval).toMatchObject({ status: 'approved', recipients: 32, notice: '' });

    await tickUntil(sending, () => handedOver(gateway, 1, 32) >= 32);
    expect(handedOver(gateway, 1, 32)).toBe(32);
    expect(gateway.ledger.duplicates()).toEqual([]);
    const sent = (await call('GET', `/campaigns/${campaign.uuid}`, editor.token)).json().data;
    expect(sent.status).toBeGreaterThan(0);
    expect(sent.approval).toMatchObject({ status: 'approved', recipients: 32 });
  });

  it('holds an approved campaign whose group grew past its approval, and e-mails the editor each decision', async () => {
    clock.set('2026-06-03T09:00:00Z');
    const group = await groupOf('Grows after approval', numbersFrom(101, 6));
    const body = campaignBody(group, { name: 'Approved then grown', scheduled_send_date: '2026-06-03 10:05:00', expiry_date: '2026-06-04 10:00:00' });
    const campaign = (await call('POST', '/campaigns/', editor.token, body)).json().data;
    expect(campaign.approval.status).toBe('pending');
    const approved = (await call('PUT', `/campaigns/${campaign.uuid}/approve`, boss.token, { comment: 'Six is fine' })).json().data;
    expect(approved.approval).toMatchObject({ status: 'approved', recipients: 6 });

    // The editor hears of the approval, with the comment.
    const approvedMails = await subjectsTo(editor.email, 'Approved: Approved then grown');
    expect(approvedMails).toHaveLength(1);
    expect(approvedMails[0]!.text).toContain('Six is fine');
    expect(approvedMails[0]!.text).toContain(`/campaigns/${campaign.uuid}`);
    expect(await subjectsTo(boss.email, 'Approved: Approved then grown')).toHaveLength(0);

    await grow(group, numbersFrom(107, 26));
    const { engine: sending, gateway } = engine();
    clock.set('2026-06-03T09:10:00Z');
    await sending.tick();
    await tickUntil(sending, () => false);
    expect(handedOver(gateway, 101, 32)).toBe(0);
    const held = (await call('GET', `/campaigns/${campaign.uuid}`, editor.token)).json().data;
    expect(held.approval).toMatchObject({ status: 'pending', decided_by: null, recipients: null });
    expect(held.approval.notice).toContain('the approval it had covered 6');
    for (const approver of [boss, otherAdmin]) expect(await subjectsTo(approver.email, 'Approval needed again: Approved then grown')).toHaveLength(1);

    // Rejected: the editor is told, and nothing goes.
    const rejected = await call('PUT', `/campaigns/${campaign.uuid}/reject`, otherAdmin.token, { comment: 'Too many now' });
    expect(rejected.json().data.approval).toMatchObject({ status: 'rejected', notice: '' });
    const rejectedMails = await subjectsTo(editor.email, 'Rejected: Approved then grown');
    expect(rejectedMails).toHaveLength(1);
    expect(rejectedMails[0]!.text).toContain('Too many now');
    await tickUntil(sending, () => false);
    expect(handedOver(gateway, 101, 32)).toBe(0);

    // Edited (asks again) and approved for the 32: all of them go.
    const edited = await call('PUT', `/campaigns/${campaign.uuid}`, editor.token, body);
    expect(edited.json().data.approval.status).toBe('pending');
    expect((await call('PUT', `/campaigns/${campaign.uuid}/approve`, boss.token, {})).json().data.approval).toMatchObject({
      status: 'approved',
      recipients: 32,
    });
    await tickUntil(sending, () => handedOver(gateway, 101, 32) >= 32);
    expect(handedOver(gateway, 101, 32)).toBe(32);
  });

  it('sends an approved campaign whose group did not grow, and one that stays under the threshold', async () => {
    clock.set('2026-06-04T09:00:00Z');
    const small = await groupOf('Stays small', numbersFrom(201, 4));
    const big = await groupOf('Stays big', numbersFrom(301, 7));
    const times = { scheduled_send_date: '2026-06-04 10:05:00', expiry_date: '2026-06-05 10:00:00' };
    const under = (await call('POST', '/campaigns/', editor.token, campaignBody(small, { name: 'Under', ...times }))).json().data;
    const kept = (await call('POST', '/campaigns/', editor.token, campaignBody(big, { name: 'Kept', ...times }))).json().data;
    expect((await call('PUT', `/campaigns/${kept.uuid}/approve`, boss.token, {})).json().data.approval.recipients).toBe(7);
    const { engine: sending, gateway } = engine();
    clock.set('2026-06-04T09:10:00Z');
    await sending.tick();
    await tickUntil(sending, () => handedOver(gateway, 201, 4) + handedOver(gateway, 301, 7) >= 11);
    expect(handedOver(gateway, 201, 4)).toBe(4);
    expect(handedOver(gateway, 301, 7)).toBe(7);
    expect((await call('GET', `/campaigns/${under.uuid}`, editor.token)).json().data.approval.status).toBe('not_required');
  });
});

describe('test sends go to known numbers unless an admin sends them', () => {
  const sendTest = (token: string, contact_number: string) =>
    call('POST', '/campaigns/send-test', token, {
      name: 'Test',
      sender: 'Acme',
      scheduled_send_date: '2026-06-05 10:05:00',
      expiry_date: '2026-06-06 10:00:00',
      template_uuid: template,
      contact_number,
    });

  it("limits an editor to the members' own numbers and the team's test numbers", async () => {
    clock.set('2026-06-05T09:00:00Z');
    await call('PUT', '/team/settings', boss.token, { approval_threshold: null });
    const campaign = (
      await call(
        'POST',
        '/campaigns/',
        editor.token,
        campaignBody(few, { name: 'Tested', scheduled_send_date: '2026-06-05 12:00:00', expiry_date: '2026-06-06 10:00:00' }),
      )
    ).json().data;

    const stranger = await sendTest(editor.token, '07700 902001');
    expect(stranger.statusCode).toBe(422);
    expect(Object.keys(stranger.json().error.errors)).toEqual(['contact_number']);
    expect(stranger.json().error.errors.contact_number[0]).toContain("the team's test numbers");
    const strangers = await call('POST', `/campaigns/${campaign.uuid}/test-sends`, editor.token, { phone_numbers: ['07700 902002', '07700 902003'] });
    expect(strangers.statusCode).toBe(422);
    expect(Object.keys(strangers.json().error.errors)).toEqual(['phone_numbers.0', 'phone_numbers.1']);

    // A member's own number (the other admin's), and a test number an admin added, are allowed.
    expect((await call('PUT', '/users/me', otherAdmin.token, { name: 'Other Admin', phone_number: '07700 902004' })).statusCode).toBe(200);
    expect((await call('PUT', '/team/settings', editor.token, { test_numbers: ['07700 902005'] })).statusCode).toBe(403);
    const refusedList = await call('PUT', '/team/settings', boss.token, { test_numbers: ['07700 902005', 'nope'] });
    expect(refusedList.statusCode).toBe(422);
    expect(Object.keys(refusedList.json().error.errors)).toEqual(['test_numbers.1']);
    const tooMany = await call('PUT', '/team/settings', boss.token, { test_numbers: numbers(11) });
    expect(Object.keys(tooMany.json().error.errors)).toEqual(['test_numbers']);
    const saved = await call('PUT', '/team/settings', boss.token, { test_numbers: ['07700 902005', '+44 7700 902005', ''] });
    expect(saved.json().data.test_numbers).toEqual(['447700902005']);
    expect((await call('GET', '/team/settings', editor.token)).json().data.test_numbers).toEqual(['447700902005']);

    expect((await sendTest(editor.token, '07700 902004')).statusCode).toBe(201);
    const tests = await call('POST', `/campaigns/${campaign.uuid}/test-sends`, editor.token, { phone_numbers: ['+447700902005'] });
    expect(tests.statusCode, tests.body).toBe(201);
    // An admin sends tests anywhere.
    expect((await sendTest(boss.token, '07700 902006')).statusCode).toBe(201);

    // What reached the gateway: the allowed numbers and the admin's, never the refused ones.
    const { engine: sending, gateway } = engine();
    clock.set('2026-06-05T09:10:00Z');
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      await sending.tick();
    }
    const to = (text: string) => gateway.ledger.byNumber.get(text) ?? gateway.ledger.byNumber.get(`+${text}`) ?? 0;
    expect([to('447700902004'), to('447700902005'), to('447700902006')]).toEqual([1, 1, 1]);
    expect([to('447700902001'), to('447700902002'), to('447700902003')]).toEqual([0, 0, 0]);
  });
});

const numbers = (count: number) => Array.from({ length: count }, (_, i) => `07700 903${String(i).padStart(3, '0')}`);
