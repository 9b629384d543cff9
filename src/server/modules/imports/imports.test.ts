/**
 * Contact imports through the service and over HTTP.
 *
 * Seen red (issue 32): with the merge writing the file's fields in place of the contact's
 * (imports.repository.ts `merge`), "never blanks a field" went red (Alice lost her name); with the
 * empty-cells option not passed to the merge, its cleared city stayed.
 */
import { PassThrough, Readable } from 'node:stream';
import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../db/schema';
import type { AuthContext } from '../../http/auth';
import { ConflictError, ValidationError } from '../../lib/errors';
import { systemClock } from '../../lib/time';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';
import { createContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import { createContactsRepository } from '../contacts/contacts.repository';
import { neutralise } from '../../lib/csv';
import { createImportsRepository, type ImportsRepository } from './imports.repository';
import { createImportsService, recoverInterruptedImports } from './imports.service';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let ownerAuth: AuthContext;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
  stranger = await t.user();
  ownerAuth = (await t.services.tokens.authenticate(owner.token))!;
});
afterAll(() => t.close());

/** The service on the test database, as services.ts wires it; `imports` can be swapped to make a step fail. */
const serviceWith = (imports: ImportsRepository = createImportsRepository(t.database.db, systemClock)) =>
  createImportsService({
    database: t.database,
    audit: t.services.auditTrail,
    imports,
    contacts: createContactsRepository(t.database.db, systemClock),
    contactGroups: createContactGroupsRepository(t.database.db, systemClock),
    suppressions: t.services.suppressions,
    clock: systemClock,
    countryOf: async () => t.config.defaultCountry,
    config: t.config,
  });
const importFile = (group: string, csv: string | Readable) =>
  serviceWith().importCsv(ownerAuth, group, { body: typeof csv === 'string' ? Readable.from([csv]) : csv, bytesTotal: null, fileName: 'test.csv' });

async function newGroup(name: string, user = owner): Promise<string> {
  return (await t.request('POST', '/api/2.0/contact-groups/', { token: user.token, body: { name } })).json().data.uuid;
}
const groupOf = async (group: string) => (await t.request('GET', `/api/2.0/contact-groups/${group}`, { token: owner.token })).json().data;
const contactsOf = async (group: string) =>
  (await t.request('GET', `/api/2.0/contact-groups/${group}/contacts?per_page=100`, { token: owner.token }))
    .json()
    .data.map((c: { phone_number: string; custom_fields: Record<string, string> }) => [c.phone_number, c.custom_fields]);
const stagedRows = async () => Number((await t.database.pool.query('SELECT count(*) FROM contact_import_rows')).rows[0].count);
const importsOf = async (group: string) =>
  (await t.database.pool.query('SELECT i.status, i.error FROM contact_imports i JOIN contact_groups g ON g.id = i.contact_group_id WHERE g.uuid = $1', [group]))
    .rows;
const upload = (group: string, csv: string, user = owner, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/api/2.0/contact-groups/${group}/imports${query}`,
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'text/csv' },
    payload: csv,
  });

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('contact imports (service)', () => {
  it('imports rows with custom fields; a number given twice keeps its later row; bad rows are reported, the rest imported', async () => {
    const group = await newGroup('Imported');
    const csv = [
      'Phone_Number,first_name,city',
      '07700 900001,Ada,Leeds',
      '+447700900002,Bo,',
      'call me,Cy,York',
      '',
      '07700900001,Ada Lovelace,London',
      '0770,Di,Hull',
    ].join('\n');
    const result = await importFile(group, csv);
    expect(result).toMatchObject({
      status: 'completed',
      rows_total: 5,
      rows_valid: 3,
      rows_invalid: 2,
      contacts_added: 2,
      contacts_updated: 0,
      percent: 100,
      error: null,
    });
    expect(await contactsOf(group)).toEqual([
      ['447700900001', { first_name: 'Ada Lovelace', city: 'London' }],
      ['447700900002', { first_name: 'Bo' }],
    ]);
    expect(await groupOf(group)).toMatchObject({ number_of_contacts: 2, headers: ['first_name', 'city'], status: 'Ready' });
    const { rows } = await t.database.pool.query(
      'SELECT row_number, value, reason FROM contact_import_errors e JOIN contact_imports i ON i.id = e.import_id WHERE i.uuid = $1 ORDER BY row_number',
      [result.uuid],
    );
    expect(rows).toEqual([
      { row_number: 4, value: 'call me', reason: 'The phone number is not a phone number.' },
      { row_number: 7, value: '0770', reason: 'The phone number is too short.' },
    ]);
    expect(await stagedRows()).toBe(0);
  });

  it('updates numbers already in the group, counts unchanged ones, and keeps the group spelling of a known field', async () => {
    const group = await newGroup('Again');
    await t.request('PUT', `/api/2.0/contact-groups/${group}`, { token: owner.token, body: { name: 'Again', headers: ['First_Name'] } });
    await importFile(group, 'phone_number,first_name\n07700900011,Al\n07700900012,Bea\n');
    const again = await importFile(group, 'phone_number,FIRST_NAME\n07700900011,Al\n07700900012,Beatrice\n07700900013,Cat\n');
    expect(again).toMatchObject({ contacts_added: 1, contacts_updated: 1, contacts_unchanged: 1 });
    expect(await groupOf(group)).toMatchObject({ number_of_contacts: 3, headers: ['First_Name'] });
    expect((await contactsOf(group))[1]).toEqual(['447700900012', { First_Name: 'Beatrice' }]);
  });

  it('refuses a file without a phone column before writing anything, saying what it read', async () => {
    const group = await newGroup('No header');
    await expect(importFile(group, 'name,city\nAnn,Leeds\n')).rejects.toEqual(
      ValidationError.field(
        'file',
        'No column holds phone numbers. The first row has 2 columns: "name", "city" (read with the delimiter ","). Name the column phone_number (or phone, mobile…), or say which it is with phone_column.',
      ),
    );
    await expect(importFile(group, '')).rejects.toBeInstanceOf(ValidationError);
    expect(await importsOf(group)).toEqual([]);
    expect(await groupOf(group)).toMatchObject({ status: 'Empty', number_of_contacts: 0, headers: [] });
  });

  it('fails an upload cut off mid-file: the group is as it was, nothing is left staged', async () => {
    const group = await newGroup('Cut off');
    await importFile(group, 'phone_number,name\n07700900031,Before\n');
    const body = new PassThrough();
    const running = importFile(group, body);
    body.write('phone_number,name\n');
    for (let i = 0; i < 12_000; i++) body.write(`0770${String(1_000_000 + i)},New\n`);
    await until(async () => (await stagedRows()) > 0);
    body.destroy(new Error('socket hang up'));
    await expect(running).rejects.toEqual(ValidationError.field('file', 'The upload was interrupted before the end of the file.'));
    expect(await contactsOf(group)).toEqual([['447700900031', { name: 'Before' }]]);
    expect(await groupOf(group)).toMatchObject({ status: 'Ready', number_of_contacts: 1 });
    expect((await importsOf(group))[1]).toEqual({ status: 'failed', error: 'The upload was interrupted before the end of the file.' });
    expect(await stagedRows()).toBe(0);
  });

  it('rolls the whole merge back when a step after it fails: the group is unchanged and the import failed', async () => {
    const group = await newGroup('Rolled back');
    await importFile(group, 'phone_number,tier\n07700900041,gold\n');
    const repository = createImportsRepository(t.database.db, systemClock);
    const broken: ImportsRepository = { ...repository, complete: async () => Promise.reject(new Error('could not extend file: No space left on device')) };
    const attempt = serviceWith(broken).importCsv(ownerAuth, group, {
      body: Readable.from(['phone_number,tier\n07700900041,silver\n07700900042,bronze\n']),
      bytesTotal: null,
      fileName: null,
    });
    await expect(attempt).rejects.toThrow('No space left on device');
    expect(await contactsOf(group)).toEqual([['447700900041', { tier: 'gold' }]]);
    expect(await groupOf(group)).toMatchObject({ status: 'Ready', number_of_contacts: 1, headers: ['tier'] });
    expect((await importsOf(group))[1]).toEqual({ status: 'failed', error: 'The import failed on the server; the group is unchanged. Import the file again.' });
    expect(await stagedRows()).toBe(0);
  });

  it('shows the group as Modifying while an import runs and refuses other changes and a second import', async () => {
    const group = await newGroup('Busy');
    const body = new PassThrough();
    const running = importFile(group, body);
    body.write('phone_number\n07700900051\n');
    await until(async () => (await importsOf(group)).length === 1);
    expect(await groupOf(group)).toMatchObject({ status: 'Modifying' });
    const add = await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, {
      token: owner.token,
      body: { contacts: [{ phone_number: '07700900052' }] },
    });
    expect(add.statusCode).toBe(409);
    await expect(importFile(group, 'phone_number\n07700900053\n')).rejects.toBeInstanceOf(ConflictError);
    body.end('07700900054\n');
    expect(await running).toMatchObject({ status: 'completed', contacts_added: 2 });
    expect(await groupOf(group)).toMatchObject({ status: 'Ready', number_of_contacts: 2 });
  });

  it('fails at start the imports a stopped process left under way, and leaves running ones alone', async () => {
    const [stuckGroup, liveGroup] = [await newGroup('Stuck'), await newGroup('Live')];
    const repository = createImportsRepository(t.database.db, systemClock);
    const groupId = async (uuid: string) => (await t.database.pool.query('SELECT id FROM contact_groups WHERE uuid = $1', [uuid])).rows[0].id as number;
    // Each import is started on its own connection, as the service does; the stuck one's connection then dies.
    const stuckClient = await t.database.pool.connect();
    const liveClient = await t.database.pool.connect();
    for (const [client, group] of [
      [stuckClient, stuckGroup],
      [liveClient, liveGroup],
    ] as const) {
      const id = await groupId(group);
      await drizzle(client, { schema }).transaction((tx) =>
        repository.start(tx, { teamId: ownerAuth.teamId, groupId: id, fileName: 'big.csv', headers: [], bytesTotal: 1000 }),
      );
    }
    const stuckBackend = (await stuckClient.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    stuckClient.release(true);
    await until(async () => (await t.database.pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [stuckBackend])).rowCount === 0);
    expect(await groupOf(stuckGroup)).toMatchObject({ status: 'Modifying' });

    expect(await recoverInterruptedImports(t.database.db, systemClock)).toBe(1);
    expect(await importsOf(stuckGroup)).toEqual([{ status: 'failed', error: 'The import was interrupted by a restart; import the file again.' }]);
    expect(await groupOf(stuckGroup)).toMatchObject({ status: 'Empty' });
    expect(await importsOf(liveGroup)).toEqual([{ status: 'receiving', error: null }]);
    expect(await groupOf(liveGroup)).toMatchObject({ status: 'Modifying' });
    const liveBackend = (await liveClient.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    liveClient.release(true);
    await until(async () => (await t.database.pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [liveBackend])).rowCount === 0);
    expect(await recoverInterruptedImports(t.database.db, systemClock)).toBe(1);
  });
});

describe('error report cells', () => {
  it('neutralises what a spreadsheet would run as a formula, but not a phone number', () => {
    expect(['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx', '+447700900001', 'plain', '07700'].map(neutralise)).toEqual([
      "'=1+1",
      "'+cmd",
      "'-2+3",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      '+447700900001',
      'plain',
      '07700',
    ]);
  });
});

// These go through HTTP: they need importsRoutes registered in buildApp (app.ts) and the service in services.ts.
describe('contact imports (HTTP)', () => {
  it('imports a CSV sent as text/csv and shows the import, its progress and the group', async () => {
    const group = await newGroup('Over HTTP');
    const csv = 'phone_number,first_name\n07700900061,Ann\n07700900062,Ben\n';
    const response = await upload(group, csv, owner, '?file_name=march.csv');
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created).toMatchObject({
      contact_group_uuid: group,
      status: 'completed',
      file_name: 'march.csv',
      rows_total: 2,
      contacts_added: 2,
      percent: 100,
      bytes_total: csv.length,
      bytes_received: csv.length,
    });
    expect((await t.request('GET', `/api/2.0/contact-imports/${created.uuid}`, { token: owner.token })).json().data).toEqual(created);
    const listed = (await t.request('GET', `/api/2.0/contact-groups/${group}/imports`, { token: owner.token })).json();
    expect(listed.data.map((i: { uuid: string }) => i.uuid)).toEqual([created.uuid]);
    expect(await groupOf(group)).toMatchObject({ number_of_contacts: 2, headers: ['first_name'], status: 'Ready' });
  });

  it('never blanks a field the contact has with an empty cell, unless empty cells clear fields (issue 32)', async () => {
    const group = await newGroup('Keep fields');
    await upload(group, 'phone,first_name,city\n07700900071,Alice,Leeds\n07700900072,Bob,York\n');
    // The newsletter export: Alice's name and city empty, Bob's city empty; no column for a field kept either way.
    const kept = await upload(group, 'phone,first_name,city\n07700900071,,\n07700900072,Robert,\n');
    expect(kept.json().data).toMatchObject({ status: 'completed', contacts_updated: 1, contacts_unchanged: 1 });
    expect(await contactsOf(group)).toEqual([
      ['447700900071', { first_name: 'Alice', city: 'Leeds' }],
      ['447700900072', { first_name: 'Robert', city: 'York' }],
    ]);
    expect((await upload(group, 'phone,city\n07700900071,\n', owner, '?empty_cells_clear=false')).json().data.contacts_unchanged).toBe(1);

    const cleared = await upload(group, 'phone,city\n07700900071,\n07700900072,Hull\n', owner, '?empty_cells_clear=true');
    expect(cleared.json().data).toMatchObject({ status: 'completed', contacts_updated: 2 });
    expect(await contactsOf(group)).toEqual([
      ['447700900071', { first_name: 'Alice' }],
      ['447700900072', { first_name: 'Robert', city: 'Hull' }],
    ]);

    const refused = await upload(group, 'phone,city\n07700900071,\n', owner, '?empty_cells_clear=yes');
    expect([refused.statusCode, refused.json().error.errors]).toEqual([422, { empty_cells_clear: ['The empty cells clear option must be true or false.'] }]);
    expect(await contactsOf(group)).toHaveLength(2);
  });

  it('reports left-out rows as JSON pages and as a CSV download whose cells cannot run as formulas', async () => {
    const group = await newGroup('Report');
    const created = (await upload(group, 'phone_number,note\n07700900071,ok\n=HYPERLINK("http://evil"),x\n+1 555,y\n"-2+3, or so",z\n')).json().data;
    expect(created).toMatchObject({ rows_valid: 1, rows_invalid: 3 });
    const errors = await t.request('GET', `/api/2.0/contact-imports/${created.uuid}/errors?per_page=2`, { token: owner.token });
    expect(errors.statusCode).toBe(200);
    expect(errors.json().meta.total).toBe(3);
    expect(errors.json().data).toEqual([
      { row: 3, value: '=HYPERLINK("http://evil")', reason: 'The phone number is not a phone number.' },
      { row: 4, value: '+1 555', reason: expect.stringMatching(/^The phone number /) },
    ]);
    const download = await t.request('GET', `/api/2.0/contact-imports/${created.uuid}/errors.csv`, { token: owner.token });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="import-${created.uuid}-errors.csv"`);
    const lines = download.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('row,value,reason');
    expect(lines[1]).toBe(`3,"'=HYPERLINK(""http://evil"")",The phone number is not a phone number.`);
    expect(lines[3]).toBe(`5,"'-2+3, or so",The phone number is not a phone number.`);
    expect(await contactsOf(group)).toEqual([['447700900071', { note: 'ok' }]]);
  });

  it('answers 422 for a file without a phone column and writes nothing', async () => {
    const group = await newGroup('Headerless');
    const response = await upload(group, 'Name;E-mail\nAnn;ann@example.com\n');
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({
      file: [
        'No column holds phone numbers. The first row has 2 columns: "Name", "E-mail" (read with the delimiter ";"). Name the column phone_number (or phone, mobile…), or say which it is with phone_column.',
      ],
    });
    expect((await t.request('GET', `/api/2.0/contact-groups/${group}/imports`, { token: owner.token })).json().meta.total).toBe(0);
    expect(await groupOf(group)).toMatchObject({ number_of_contacts: 0, status: 'Empty' });
  });

  it("answers 404 for another team's group and import", async () => {
    const theirs = await newGroup('Theirs', stranger);
    const theirImport = (await upload(theirs, 'phone_number\nbad\n', stranger)).json().data.uuid;
    expect((await upload(theirs, 'phone_number\n07700900091\n')).statusCode).toBe(404);
    for (const path of [
      `/api/2.0/contact-groups/${theirs}/imports`,
      `/api/2.0/contact-imports/${theirImport}`,
      `/api/2.0/contact-imports/${theirImport}/errors`,
      `/api/2.0/contact-imports/${theirImport}/errors.csv`,
    ]) {
      expect((await t.request('GET', path, { token: owner.token })).statusCode).toBe(404);
    }
    expect((await t.request('GET', `/api/2.0/contact-imports/${theirImport}/errors.csv`, { token: stranger.token })).statusCode).toBe(200);
  });
});
