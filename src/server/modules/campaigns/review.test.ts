/**
 * The review of a campaign before it goes out, and personalisation that cannot break silently
 * (issue 19, points 1 and 4), on a real audience: the figures are recounted by hand below from the
 * contacts the test writes.
 *
 * Seen red: with the scheduling check of `resolve` (campaigns.service.ts, `fieldsAgainstGroups`)
 * removed, the campaign whose `{{first_name}}` no group has was scheduled (201, not 422); with the
 * field spellings reduced to the template's own (review.ts `fieldsAgainstGroups`), `{{first name}}`
 * found no `First Name` value and every recipient counted as missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

// 2026-06-01 10:00 in London (BST).
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let admin: TestUser;
const groups: Record<string, string> = {};
const FILLER = 'x'.repeat(145);

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = admin.token) => t.request(method, `/api/2.0${url}`, { token, body });
const template = async (body: string) =>
  (await call('POST', '/templates/', { name: `T ${body.slice(0, 20)}`, body, sender: 'Acme' })).json().data.uuid as string;
const campaignBody = (templateUuid: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Summer',
  sender: 'Acme',
  scheduled_send_date: '2026-06-01 20:59:57',
  expiry_date: '2026-06-03 09:00:00',
  included_contact_groups: [groups.A, groups.B, groups.E],
  excluded_contact_groups: [groups.C],
  template_uuid: templateUuid,
  ...overrides,
});

async function group(name: string, contacts: Array<{ phone_number: string; custom_fields?: Record<string, string> }>) {
  const uuid = (await call('POST', '/contact-groups/', { name })).json().data.uuid as string;
  if (contacts.length > 0) expect((await call('PUT', `/contact-groups/${uuid}/add-contacts`, { contacts })).statusCode).toBe(200);
  groups[name] = uuid;
}

beforeAll(async () => {
  // One message a second, so a few recipients reach into quiet hours.
  t = await createTestApp({ SMS_RATE_LIMIT: '1' }, { clock });
  admin = await t.user({ team: 'Reviewers' });
  await call('PUT', '/team/settings', { price_per_segment: 0.05, currency: 'GBP', confirm_threshold: 3, quiet_hours: { start: '21:00', end: '08:00' } });
  await group('A', [
    { phone_number: '07700900501', custom_fields: { 'First Name': 'Ada' } },
    { phone_number: '07700900502', custom_fields: { 'First Name': 'Bo' } },
    { phone_number: '07700900503', custom_fields: { 'First Name': 'Bartholomew' } }, // 161 characters: two parts
    { phone_number: '07700900504', custom_fields: { 'First Name': 'Łucja' } }, // UCS-2: three parts
    { phone_number: '07700900505', custom_fields: { 'First Name': '' } },
    { phone_number: '07700900506', custom_fields: { 'First Name': 'Cy' } }, // excluded by C
    { phone_number: '07700900507', custom_fields: { 'First Name': 'Di' } }, // opted out
  ]);
  await group('B', [{ phone_number: '07700900501', custom_fields: { 'First Name': 'Ada' } }, { phone_number: '07700900508' }]);
  await group('E', [{ phone_number: '07700900509' }]);
  await group('C', [{ phone_number: '07700900506' }]);
  await group('Empty', []);
  const optouts = (await call('GET', '/contact-groups/?per_page=100')).json().data.find((g: { name: string }) => g.name === 'default_optouts').uuid;
  await call('PUT', `/contact-groups/${optouts}/add-contacts`, { contacts: [{ phone_number: '07700900507' }] });
});
afterAll(() => t.close());

describe('the review', () => {
  it('counts recipients, parts, cost and time from the real audience, before and after saving', async () => {
    const uuid = await template(`Hi {{First Name|there}}! ${FILLER}`);
    const preview = await call('POST', '/campaigns/preview', campaignBody(uuid));
    expect(preview.statusCode, preview.body).toBe(200);
    const expected = {
      // A 7 + B 2 + E 1 contacts; 501 twice; 506 excluded; 507 opted out.
      recipients: { included: 10, duplicates: 1, excluded: 1, opted_out: 1, total: 7, conflicting: 0 },
      // 501, 502, 505 (fallback), 508 and 509 (fallback): one part; 503: two; 504 (Ł): three.
      segments: { min: 1, typical: 1, max: 3 },
      total_parts: 10,
      cost: { amount: 0.5, currency: 'GBP' },
      // Seven messages at one a second from 20:59:57: three before quiet hours, four after them.
      starts_at: '2026-06-01 20:59:57',
      finishes_at: '2026-06-02 08:00:04',
      quiet_hours: { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] },
      quiet_periods: [{ start_at: '2026-06-01 21:00:00', end_at: '2026-06-02 08:00:00' }],
      quiet_zones: [
        { zone: 'Europe/London', recipients: 7, held_at_start: false, periods: [{ start_at: '2026-06-01 21:00:00', end_at: '2026-06-02 08:00:00' }] },
      ],
      coverage: [{ field: 'First Name', fallback: true, missing: 3, groups_without: [{ uuid: groups.E, name: 'E' }], conflicting: 0, blocking: false }],
      approval_required: false,
      confirm_threshold: 3,
      confirm_required: true,
      test_sends: [],
    };
    expect(preview.json().data).toEqual(expected);
    // Nothing was written by the preview.
    expect((await call('GET', '/campaigns/')).json().meta.total).toBe(0);

    const created = await call('POST', '/campaigns/', campaignBody(uuid));
    expect(created.statusCode).toBe(201);
    expect((await call('GET', `/campaigns/${created.json().data.uuid}/review`)).json().data).toEqual(expected);
  });

  it('says which recipients quiet hours hold in their own zone, and when the last can go (issue 32, point 6)', async () => {
    // Seen red: with the audience's zones left out (the team's zone for all, as before), the review of a campaign to a
    // Briton and a Frenchman at 20:30 in London said no quiet period fell while it sent, and that it finished at 20:30:02.
    await group('Neighbours', [{ phone_number: '07700900510' }, { phone_number: '+33612345678' }]);
    const uuid = await template('Bonsoir!');
    const preview = await call(
      'POST',
      '/campaigns/preview',
      campaignBody(uuid, { included_contact_groups: [groups.Neighbours], excluded_contact_groups: [], scheduled_send_date: '2026-06-01 20:30:00' }),
    );
    expect(preview.statusCode, preview.body).toBe(200);
    // 21:30 in Paris: the Frenchman waits until 08:00 there, 07:00 in London (the service's zone).
    expect(preview.json().data).toMatchObject({
      recipients: { total: 2 },
      starts_at: '2026-06-01 20:30:00',
      finishes_at: '2026-06-02 07:00:01',
      quiet_periods: [{ start_at: '2026-06-01 20:00:00', end_at: '2026-06-02 07:00:00' }],
      quiet_zones: [
        { zone: 'Europe/Paris', recipients: 1, held_at_start: true, periods: [{ start_at: '2026-06-01 20:00:00', end_at: '2026-06-02 07:00:00' }] },
      ],
    });
  });

  it('sends through quiet hours when an admin says so, and only then', async () => {
    const uuid = await template(`Hello ${FILLER}`);
    const through = (await call('POST', '/campaigns/preview', campaignBody(uuid, { ignore_quiet_hours: true }))).json().data;
    expect(through).toMatchObject({ finishes_at: '2026-06-01 21:00:04', quiet_hours: null, quiet_periods: [] });
    const editor = await memberOf('editor');
    const refused = await call('POST', '/campaigns/', campaignBody(uuid, { ignore_quiet_hours: true }), editor.token);
    expect(refused.statusCode).toBe(403);
    const created = await call('POST', '/campaigns/', campaignBody(uuid, { ignore_quiet_hours: true }));
    expect(created.json().data.ignore_quiet_hours).toBe(true);
    // An editor's edit that leaves it alone keeps it; one that changes it is refused.
    const edited = await call('PUT', `/campaigns/${created.json().data.uuid}`, campaignBody(uuid, { name: 'Renamed' }), editor.token);
    expect(edited.json().data).toMatchObject({ name: 'Renamed', ignore_quiet_hours: true });
    expect((await call('PUT', `/campaigns/${created.json().data.uuid}`, campaignBody(uuid, { ignore_quiet_hours: false }), editor.token)).statusCode).toBe(403);
    // The decision is in the audit log, with who made it.
    const events = (await call('GET', '/audit-events/?per_page=100')).json().data as Array<{ action: string; changes: unknown }>;
    expect(JSON.stringify(events)).toContain('ignore_quiet_hours');
  });
});

describe('personalisation that cannot break silently', () => {
  it('refuses to schedule a field no group has, names it, and saves it as a draft', async () => {
    // The column is "First Name": {{first_name}} would read "Hi  !" for everyone.
    const uuid = await template(`Hi {{first_name}}! ${FILLER}`);
    const refused = await call('POST', '/campaigns/', campaignBody(uuid));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.errors.template_uuid[0]).toMatch(/\{\{first_name\}\}, which none of the included groups has \(their fields: First Name\)/);
    expect((await call('POST', '/campaigns/preview', campaignBody(uuid))).json().data.coverage).toEqual([
      {
        field: 'first_name',
        fallback: false,
        missing: 7,
        groups_without: [
          { uuid: groups.A, name: 'A' },
          { uuid: groups.B, name: 'B' },
          { uuid: groups.E, name: 'E' },
        ],
        conflicting: 0,
        blocking: true,
      },
    ]);
    const draft = await call('POST', '/campaigns/', campaignBody(uuid, { is_draft: true }));
    expect(draft.statusCode).toBe(201);
    // Scheduling the draft is refused the same way, and nothing changes.
    const scheduled = await call('PUT', `/campaigns/${draft.json().data.uuid}`, campaignBody(uuid, { is_draft: false }));
    expect(scheduled.statusCode).toBe(422);
    expect((await call('GET', `/campaigns/${draft.json().data.uuid}`)).json().data.is_draft).toBe(true);
    // A fallback makes it safe; so does an empty group, which says nothing about its fields.
    expect((await call('POST', '/campaigns/', campaignBody(await template(`Hi {{first_name|there}}! ${FILLER}`)))).statusCode).toBe(201);
    expect((await call('POST', '/campaigns/', campaignBody(uuid, { included_contact_groups: [groups.Empty], excluded_contact_groups: [] }))).statusCode).toBe(
      201,
    );
  });

  it('matches a field ignoring case, as sending does', async () => {
    const uuid = await template(`Hi {{first name}}! ${FILLER}`);
    const coverage = (await call('POST', '/campaigns/preview', campaignBody(uuid))).json().data.coverage;
    expect(coverage).toEqual([
      { field: 'first name', fallback: false, missing: 3, groups_without: [{ uuid: groups.E, name: 'E' }], conflicting: 0, blocking: false },
    ]);
  });

  it("measures a template's body over chosen groups for the editor, and lists a template's campaigns", async () => {
    const encoding = await call('POST', '/templates/encoding', { body: `Hi {{First Name|there}}! ${FILLER}`, contact_groups: [groups.A, groups.E] });
    expect(encoding.statusCode, encoding.body).toBe(200);
    // A less 507 (opted out; 506 is excluded only by a campaign), plus E: 501–506 and 509.
    expect(encoding.json().data).toMatchObject({ segments: 1, audience: { recipients: 7, segments: { min: 1, typical: 1, max: 3 } } });
    expect((await call('POST', '/templates/encoding', { body: 'Hi', contact_groups: ['9b2f0a52-0000-4000-8000-000000000000'] })).statusCode).toBe(422);
    expect((await call('POST', '/templates/encoding', { body: 'Hi' })).json().data.audience).toBeUndefined();

    const uuid = await template(`Only for the list ${FILLER}`);
    const scheduled = (await call('POST', '/campaigns/', campaignBody(uuid, { name: 'Uses it' }))).json().data.uuid;
    const listed = (await call('GET', `/campaigns/?status=0&template_uuid=${uuid}`)).json();
    expect(listed.data.map((c: { uuid: string }) => c.uuid)).toEqual([scheduled]);
    expect(listed.meta.total).toBe(1);
  });

  it('lets viewers read a review but not preview one', async () => {
    const viewer = await memberOf('viewer');
    const uuid = await template(`Hi ${FILLER}`);
    const created = (await call('POST', '/campaigns/', campaignBody(uuid))).json().data.uuid;
    expect((await call('GET', `/campaigns/${created}/review`, undefined, viewer.token)).statusCode).toBe(200);
    expect((await call('POST', '/campaigns/preview', campaignBody(uuid), viewer.token)).statusCode).toBe(403);
    expect((await call('POST', '/campaigns/preview', { ...campaignBody(uuid), included_contact_groups: [] })).statusCode).toBe(422);
  });
});

describe('the review of a campaign to segments (issue 35)', () => {
  // Seen red: with the review reading the included groups only (review.ts without `subject.audience`), this
  // campaign without groups had 0 parts, no cost, no quiet zone, no missing field and finished at its start.
  it('measures parts, cost, field coverage and time over the segments’ recipients, before and after saving', async () => {
    const segment = (await call('POST', '/segments/', { name: 'In A', match: 'all', conditions: [{ type: 'group', op: 'in', group_uuid: groups.A }] })).json()
      .data.uuid as string;
    const uuid = await template(`Hi {{First Name|there}}! ${FILLER}`);
    const body = campaignBody(uuid, { name: 'Segment only', included_contact_groups: [], excluded_contact_groups: [], included_segments: [segment] });
    const expected = {
      // A's numbers less 507 (opted out): 501–506.
      recipients: { total: 6 },
      // 501, 502, 505 (fallback) and 506: one part; 503: two; 504 (Ł): three.
      segments: { min: 1, typical: 1, max: 3 },
      total_parts: 9,
      cost: { amount: 0.45, currency: 'GBP' },
      // Six messages at one a second from 20:59:57: three before quiet hours, three after them.
      finishes_at: '2026-06-02 08:00:03',
      quiet_zones: [{ zone: 'Europe/London', recipients: 6 }],
      // 505's First Name is empty; no group is included, so none is without it.
      coverage: [{ field: 'First Name', fallback: true, missing: 1, groups_without: [], conflicting: 0, blocking: false }],
      confirm_required: true,
    };
    const preview = await call('POST', '/campaigns/preview', body);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject(expected);
    const created = await call('POST', '/campaigns/', body);
    expect(created.statusCode, created.body).toBe(201);
    expect((await call('GET', `/campaigns/${created.json().data.uuid}/review`)).json().data).toMatchObject(expected);
  });
});

/** A new member of the team with `role`, with a token of the team. */
async function memberOf(role: 'editor' | 'viewer') {
  const user = await t.user();
  await t.services.users.addToTeam(user.email, 'Reviewers', role);
  const team = (await t.services.teamsRepository.findByName('Reviewers'))!;
  const id = (await t.services.usersRepository.findByEmail(user.email))!.id;
  return { ...user, token: (await t.services.tokens.issue(id, 'personal', 'test', { teamId: team.id })).token };
}
