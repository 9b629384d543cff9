/**
 * The audit log, read through the API as an admin would: changes with their fields before and after,
 * sign-ins and failed sign-ins, tokens, approvals, pauses and refused edits; filters; the CSV export;
 * another team's events never shown; and a table that refuses to be changed.
 *
 * Seen red: with `registerAuditTrail` left out of app.ts, no change was listed; with the SECRET rule
 * in http/audit-trail.ts emptied, the webhook's `X-Api-Key` header value appeared in the log; with
 * READS_BY_POST emptied, `previewCampaign` and `previewContactImport` were listed as events; with
 * the `auditExport` branch of `audited` removed, no export was listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const API = '/api/2.0';
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let admin: TestUser;
let session: string;
let stranger: TestUser;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown) =>
  t.request(method, `${API}${url}`, { token, body });
type Event = {
  action: string;
  actor: { kind: string; uuid: string | null; name: string };
  resource_type: string;
  resource_uuid: string;
  changes: Record<string, unknown>;
};
const eventsOf = async (query = '', token = admin.token) => {
  const response = await call('GET', `/audit-events?per_page=100${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Event[];
};

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock });
  admin = await t.user({ team: 'Audited Co', password: 'audited-password' });
  stranger = await t.user({ team: 'Stranger Co' });
  session = (await call('POST', '/auth/login', undefined, { email: admin.email, password: 'audited-password' })).json().data.token;
});
afterAll(() => t.close());

describe('the audit log', () => {
  it('records sign-ins and failed sign-ins, with who and from where', async () => {
    await call('POST', '/auth/login', undefined, { email: admin.email, password: 'wrong-password' });
    const [failed, signedIn] = await eventsOf('&action=loginFailed').then(async (failures) => [failures[0]!, (await eventsOf('&action=login'))[0]!]);
    expect(failed).toMatchObject({ action: 'loginFailed', actor: { kind: 'anonymous', uuid: null, name: admin.email }, resource_type: 'session' });
    expect(signedIn).toMatchObject({ action: 'login', actor: { kind: 'user', uuid: admin.userUuid } });
    expect((await call('GET', '/audit-events?action=login', admin.token)).json().data[0].ip).toBe('127.0.0.1');
  });

  it('records a change with the fields before and after, by the session user or the API token', async () => {
    const template = (await call('POST', '/templates/', session, { name: 'Sale', body: 'Hi', sender: 'Acme' })).json().data;
    await call('PUT', `/templates/${template.uuid}`, admin.token, { name: 'Big sale', body: 'Hi', sender: 'Acme' });
    const [updated, created] = await eventsOf(`&resource_uuid=${template.uuid}`);
    expect(created).toMatchObject({
      action: 'createTemplate',
      actor: { kind: 'user', uuid: admin.userUuid },
      resource_type: 'template',
      resource_uuid: template.uuid,
      changes: { name: { after: 'Sale' }, body: { after: 'Hi' } },
    });
    expect(updated).toMatchObject({ action: 'updateTemplate', actor: { kind: 'token', uuid: admin.userUuid, name: 'test' } });
    expect(updated!.changes).toEqual({ name: { before: 'Sale', after: 'Big sale' } });

    await call('DELETE', `/templates/${template.uuid}`, admin.token);
    const [deleted] = await eventsOf(`&resource_uuid=${template.uuid}`);
    expect(deleted).toMatchObject({ action: 'deleteTemplate', changes: { name: { before: 'Big sale' } } });
  });

  it("records a change of a resource without an identifier (the team's settings) with both values", async () => {
    await call('PUT', '/team/settings', admin.token, { approval_threshold: 0 });
    await call('PUT', '/team/settings', admin.token, { approval_threshold: null });
    const [cleared] = await eventsOf('&action=updateTeamSettings');
    expect(cleared).toMatchObject({ resource_type: 'team', changes: { approval_threshold: { before: 0, after: null } } });
  });

  it('never records a secret', async () => {
    const webhook = (
      await call('POST', '/webhooks/', admin.token, { name: 'CRM', url: 'https://crm.example.com/hook', headers: { 'X-Api-Key': 'very-secret-value' } })
    ).json().data;
    expect(webhook.uuid).toBeDefined();
    const token = (await call('POST', '/tokens/', session, { name: 'CRM sync' })).json().data;
    await call('PUT', '/users/me/password', session, { current_password: 'audited-password', new_password: 'another-long-password' });
    const log = JSON.stringify(await eventsOf());
    expect(log).not.toContain('very-secret-value');
    expect(log).not.toContain(token.token);
    expect(log).not.toContain('another-long-password');
    const csv = (await call('GET', '/audit-events.csv', admin.token)).body;
    expect(csv).not.toContain('very-secret-value');
    expect((await eventsOf('&action=createToken'))[0]).toMatchObject({
      resource_type: 'token',
      resource_uuid: token.uuid,
      changes: { name: { after: 'CRM sync' } },
    });
    await call('DELETE', `/tokens/${token.uuid}`, session);
    expect((await eventsOf('&action=revokeToken'))[0]).toMatchObject({ resource_uuid: token.uuid });
  });

  it('records refused edits, pauses and approvals', async () => {
    const template = (await call('POST', '/templates/', admin.token, { name: 'T', body: 'Hi', sender: 'Acme' })).json().data.uuid;
    const group = (await call('POST', '/contact-groups/', admin.token, { name: 'G' })).json().data.uuid;
    const body = {
      name: 'Throttled',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:01:00',
      expiry_date: '2026-06-02 10:00:00',
      throttled: true,
      scheduled_finish_date: '2026-06-01 17:00:00',
      included_contact_groups: [group],
      excluded_contact_groups: [],
      template_uuid: template,
    };
    const campaign = (await call('POST', '/campaigns/', admin.token, body)).json().data.uuid;
    await call('PUT', `/campaigns/${campaign}/toggle-paused-status`, admin.token);
    clock.advance(120_000); // its send time passes: edits are refused (423)
    expect((await call('PUT', `/campaigns/${campaign}`, admin.token, body)).statusCode).toBe(423);
    const events = await eventsOf(`&resource_uuid=${campaign}`);
    expect(events.map((event) => event.action)).toEqual(['updateCampaign.refused', 'toggleCampaignPaused', 'createCampaign']);
    expect(events[1]!.changes).toEqual({ manually_paused: { before: null, after: true } });
  });

  it('does not record reads that use a POST (previews): they change nothing', async () => {
    const group = (await call('POST', '/contact-groups/', admin.token, { name: 'Previewed' })).json().data.uuid;
    const template = (await call('POST', '/templates/', admin.token, { name: 'P', body: 'Hi', sender: 'Acme' })).json().data.uuid;
    const preview = await call('POST', '/campaigns/preview', admin.token, {
      name: 'Not saved',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 12:00:00',
      expiry_date: '2026-06-02 12:00:00',
      included_contact_groups: [group],
      excluded_contact_groups: [],
      template_uuid: template,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const importPreview = await t.request('POST', `${API}/contact-groups/${group}/imports/preview`, {
      token: admin.token,
      body: 'phone_number,name\n+447700900123,Ann\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(importPreview.statusCode, importPreview.body).toBe(200);
    expect(await eventsOf('&action=previewCampaign')).toEqual([]);
    expect(await eventsOf('&action=previewContactImport')).toEqual([]);
    // The changes around them still are.
    expect((await eventsOf(`&resource_uuid=${group}`)).map((event) => event.action)).toEqual(['createContactGroup']);
  });

  it('records exports of contacts (a group CSV, a contact, a report stream) by whoever took them, viewers included', async () => {
    await t.services.users.addToTeam(stranger.email, 'Audited Co', 'viewer');
    const team = (await t.services.teamsRepository.findByName('Audited Co'))!;
    const strangerId = (await t.services.usersRepository.findByEmail(stranger.email))!.id;
    const viewer = (await t.services.tokens.issue(strangerId, 'personal', 'viewer export', { teamId: team.id })).token;
    const group = (await call('POST', '/contact-groups/', admin.token, { name: 'Exported' })).json().data.uuid;
    await call('PUT', `/contact-groups/${group}/add-contacts`, admin.token, { contacts: [{ phone_number: '+447700900321' }] });
    const template = (await call('POST', '/templates/', admin.token, { name: 'E', body: 'Hi', sender: 'Acme' })).json().data.uuid;
    const campaign = (
      await call('POST', '/campaigns/', admin.token, {
        name: 'Reported',
        sender: 'Acme',
        scheduled_send_date: '2026-06-03 12:00:00',
        expiry_date: '2026-06-04 12:00:00',
        included_contact_groups: [group],
        excluded_contact_groups: [],
        template_uuid: template,
      })
    ).json().data.uuid;

    expect((await call('GET', `/contact-groups/${group}/export.csv`, viewer)).statusCode).toBe(200);
    expect((await call('GET', `/reporting/${campaign}/delivery.csv?status=Failed`, viewer)).statusCode).toBe(200);
    expect((await call('GET', `/reporting/${campaign}/recipient.ndjson`, viewer)).statusCode).toBe(200);
    expect((await call('GET', '/contacts/447700900321/export', admin.token)).statusCode).toBe(200);

    expect((await eventsOf('&action=exportContactGroup'))[0]).toMatchObject({
      actor: { kind: 'token', name: 'viewer export' },
      resource_type: 'contact_group',
      resource_uuid: group,
    });
    expect((await eventsOf('&action=streamDeliveryReportCsv'))[0]).toMatchObject({
      resource_type: 'report',
      resource_uuid: campaign,
      changes: { status: { after: 'Failed' } },
    });
    expect((await eventsOf('&action=streamRecipientReportNdjson'))[0]).toMatchObject({ resource_uuid: campaign });
    const [contact] = await eventsOf('&action=exportContact');
    expect(contact).toMatchObject({ actor: { kind: 'token', uuid: admin.userUuid }, resource_type: 'contact' });
    // The number is not written into the log.
    expect(JSON.stringify(contact)).not.toContain('900321');
    // A refused export (a viewer may not download a contact's data) changed nothing and is not an export.
    expect((await call('GET', '/contacts/447700900321/export', viewer)).statusCode).toBe(403);
    expect(await eventsOf('&action=exportContact')).toHaveLength(1);
  });

  it('filters by actor, action and time, and pages newest first', async () => {
    // Part of a name, in any case: the API token called `test`, and the addresses at herald.test.
    const byName = await eventsOf('&actor=TES');
    expect(byName.some((event) => event.actor.kind === 'token' && event.actor.name === 'test')).toBe(true);
    expect(byName.every((event) => event.actor.name.toLowerCase().includes('tes'))).toBe(true);
    expect(await eventsOf('&actor=nobody-by-this-name')).toEqual([]);
    expect((await eventsOf(`&actor=${admin.userUuid}`)).every((event) => event.actor.uuid === admin.userUuid)).toBe(true);
    expect(await eventsOf('&from=2030-01-01 00:00:00')).toEqual([]);
    expect((await eventsOf('&to=2026-06-01 10:00:00')).length).toBe(0);
    const page = (await call('GET', '/audit-events?per_page=2', admin.token)).json();
    expect(page.data).toHaveLength(2);
    expect(page.meta.total).toBeGreaterThan(2);
    const invalid = await call('GET', '/audit-events?from=yesterday', admin.token);
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error.errors.from).toBeDefined();
  });

  it('exports the filtered log as CSV that spreadsheets read safely', async () => {
    const response = await call('GET', '/audit-events.csv?action=createTemplate', admin.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('time,actor_kind,actor_uuid,actor,action,resource_type,resource_uuid,changes,ip');
    expect(lines.slice(1).every((line) => line.includes(',createTemplate,template,'))).toBe(true);
    expect(lines.length).toBe(5);
  });

  it('shows a team only its own events, to every role, and the table refuses to change', async () => {
    expect((await eventsOf('', stranger.token)).some((event) => event.actor.uuid === admin.userUuid)).toBe(false);
    await t.services.users.addToTeam(stranger.email, 'Audited Co', 'viewer');
    const team = (await t.services.teamsRepository.findByName('Audited Co'))!;
    const id = (await t.services.usersRepository.findByEmail(stranger.email))!.id;
    const viewer = (await t.services.tokens.issue(id, 'personal', 'viewer', { teamId: team.id })).token;
    expect((await eventsOf('', viewer)).length).toBeGreaterThan(5);

    await expect(t.database.pool.query(`UPDATE audit_events SET action = 'nothing'`)).rejects.toThrow('audit events cannot be changed or deleted');
    await expect(t.database.pool.query(`DELETE FROM audit_events`)).rejects.toThrow('audit events cannot be changed or deleted');
    await expect(t.database.pool.query(`TRUNCATE audit_events`)).rejects.toThrow('audit events cannot be changed or deleted');
  });
  it('refuses a filter PostgreSQL cannot compare before the CSV starts, and reads the last moment of year 9999', async () => {
    // Seen red: a NUL in `actor` cut the CSV off after its header line (the query failed mid-stream),
    // and `from=9999-12-31 23:59:59` answered 500 (the zone's offset was read in year 10000).
    for (const path of ['/audit-events.csv', '/audit-events']) {
      expect((await call('GET', `${path}?actor=a%00b`, admin.token)).statusCode).toBe(422);
      expect((await call('GET', `${path}?action=a%00b`, admin.token)).statusCode).toBe(422);
      expect((await call('GET', `${path}?from=9999-12-31%2023:59:59`, admin.token)).statusCode).toBe(200);
    }
  });
});
