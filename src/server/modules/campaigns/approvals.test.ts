/**
 * Approvals, counted at the carrier: an engine ticks over a counting gateway, and a campaign waiting
 * for approval hands nothing over, even past its send time, until another admin approves it.
 * Approvers are told by e-mail, counted at a real SMTP server.
 *
 * Seen red: with the approval condition removed from the engine's `startDue` (engine/store/start.ts),
 * the editor's 100,000-recipient campaign started on the first tick (the gateway counted its first
 * messages); with the requester check removed from `decide`, the requesting admin's approval was 200.
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
  await worker.runOnce();
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
