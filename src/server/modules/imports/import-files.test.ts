/**
 * Files as marketers have them (issue 20, point 1), sent over a real socket with no options: an
 * Excel export from much of Europe (UTF-8 with a BOM, `;`, CRLF, `Mobile;First Name`), a CRM export
 * (`Phone,Email`, quoted cells with commas and line breaks), Windows-1252 and UTF-16 text, tab and
 * pipe delimiters, a list of numbers without a header; then each option overriding a guess, the
 * preview that shows the guesses, and the errors that say what was read. What is checked is what a
 * team reads back over the API: the contacts and fields of the group.
 *
 * Seen red (each removed once, the suite run, then put back): with the delimiter always `,`, the
 * `;`, tab and pipe files failed ("No column holds phone numbers", one column seen); with every
 * file read as UTF-8, "Zoë Müller" from Windows-1252 came back broken; without the header
 * spellings, the Telephone,Mobile Number file took the landline (the first column of numbers);
 * without `fieldNameOf`, `First Name` stayed a field with a space; without the UTF-16 byte order
 * mark check, the UTF-16 file's phone column was not found.
 * Issue 32: without the apostrophe dropped in normalizePhoneNumber, both Shopify rows were left out;
 * without the check of the rows written, the import of no valid row answered `completed`; with the
 * service's DEFAULT_COUNTRY instead of the team's, 0151 23456789 was read as British and left out.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importClient, type ImportGroup } from '../../testing/import-client';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let client: Awaited<ReturnType<typeof importClient>>;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  client = await importClient(t);
  base = client.base;
});
afterAll(() => t.close());

type Group = ImportGroup;
const headers = (group: Group) => client.headers(group);
const newGroup = (name: string) => client.newGroup(name);
const post = (group: Group, file: string | Uint8Array, query: Record<string, string> = {}, path = 'imports') => client.post(group, file, query, path);
const contactsOf = (group: Group) => client.contactsOf(group);
const get = async (group: Group, path: string) => (await fetch(`${base}/contact-groups/${group.uuid}${path}`, { headers: headers(group) })).json();
const headersOf = async (group: Group) => ((await get(group, '')) as { data: { headers: string[] } }).data.headers;
const importCount = async (group: Group) => ((await get(group, '/imports')) as { meta: { total: number } }).meta.total;
const BOM = '\uFEFF';

describe('files as they come, with no options', () => {
  it('imports an Excel export: UTF-8 with a BOM, semicolons, CRLF, "Mobile;First Name"', async () => {
    const group = await newGroup('Excel EU');
    const file = `${BOM}Mobile;First Name;City\r\n07700 900101;Zoë;Leeds\r\n+44 7700 900102;"Ann; the second";York\r\n\r\n`;
    const response = await post(group, file);
    expect(response.status).toBe(201);
    expect((await response.json()).data).toMatchObject({ status: 'completed', rows_valid: 2, rows_invalid: 0, contacts_added: 2 });
    expect(await contactsOf(group)).toEqual([
      ['447700900101', { first_name: 'Zoë', city: 'Leeds' }],
      ['447700900102', { first_name: 'Ann; the second', city: 'York' }],
    ]);
    expect(await headersOf(group)).toEqual(['first_name', 'city']);
  });

  it('imports a CRM export "Phone,Email" with quoted cells holding commas and line breaks', async () => {
    const group = await newGroup('CRM');
    const file = 'Phone,Email,Notes\n"07700 900111",ann@example.com,"Likes sales, hates calls"\n07700900112,bo@example.com,"Two\nlines"\n';
    expect((await post(group, file)).status).toBe(201);
    expect(await contactsOf(group)).toEqual([
      ['447700900111', { email: 'ann@example.com', notes: 'Likes sales, hates calls' }],
      ['447700900112', { email: 'bo@example.com', notes: 'Two\nlines' }],
    ]);
  });

  it('decodes Windows-1252 (what Excel writes on Windows) and UTF-16 with its byte order mark, tab-separated', async () => {
    const latin = await newGroup('Latin');
    const file1252 = iconv.encode('Telefon;Vorname;Nachname\r\n07700900121;Zoë;Müller\r\n07700900122;Renée;Straße – €5\r\n', 'windows-1252');
    expect((await post(latin, file1252)).status).toBe(201);
    expect(await contactsOf(latin)).toEqual([
      ['447700900121', { vorname: 'Zoë', nachname: 'Müller' }],
      ['447700900122', { vorname: 'Renée', nachname: 'Straße – €5' }],
    ]);

    const unicode = await newGroup('Unicode text');
    const file16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('Cell\tName\r\n07700900123\tŁukasz 😀\r\n', 'utf-16le')]);
    expect((await post(unicode, file16)).status).toBe(201);
    expect(await contactsOf(unicode)).toEqual([['447700900123', { name: 'Łukasz 😀' }]]);
  });

  it('reads pipes, finds an unnamed phone column by its cells, and imports a list of numbers without a header', async () => {
    const pipes = await newGroup('Pipes');
    expect((await post(pipes, 'Contact|Name\n07700900131|Al\n07700900132|Bo\n')).status).toBe(201);
    expect(await contactsOf(pipes)).toEqual([
      ['447700900131', { name: 'Al' }],
      ['447700900132', { name: 'Bo' }],
    ]);

    const bare = await newGroup('Bare list');
    const response = await post(bare, '07700900133\n07700900134\nnot a number\n');
    expect((await response.json()).data).toMatchObject({ rows_total: 3, rows_valid: 2, rows_invalid: 1 });
    expect((await contactsOf(bare)).map(([number]) => number)).toEqual(['447700900133', '447700900134']);
  });

  it('prefers the mobile column when a file has several phone columns', async () => {
    const group = await newGroup('Two phones');
    expect((await post(group, 'Telephone,Mobile Number,Name\n01632960001,07700900141,Al\n')).status).toBe(201);
    expect(await contactsOf(group)).toEqual([['447700900141', { telephone: '01632960001', name: 'Al' }]]);
  });
});

describe('numbers that are opted out', () => {
  it('are imported into the group but flagged in the result, and stay opted out', async () => {
    const group = await newGroup('Newsletter');
    const groups = (
      (await (await fetch(`${base}/contact-groups/?per_page=100`, { headers: headers(group) })).json()) as { data: Array<{ uuid: string; name: string }> }
    ).data;
    const optouts: Group = { uuid: groups.find((found) => found.name === 'default_optouts')!.uuid, token: group.token };
    await fetch(`${base}/contact-groups/${optouts.uuid}/add-contacts`, {
      method: 'PUT',
      headers: { ...headers(group), 'content-type': 'application/json' },
      body: JSON.stringify({ contacts: [{ phone_number: '07700900181' }, { phone_number: '07700900189' }] }),
    });
    const response = await post(group, 'phone\n07700900181\n07700900182\n07700900181\n');
    expect((await response.json()).data).toMatchObject({ status: 'completed', contacts_added: 2, contacts_opted_out: 1 });
    expect((await contactsOf(optouts)).map(([number]) => number).sort()).toEqual(['447700900181', '447700900189']);
    // An import into default_optouts is all opt-outs: nothing to flag.
    expect((await (await post(optouts, 'phone\n07700900183\n')).json()).data).toMatchObject({ contacts_added: 1, contacts_opted_out: 0 });
  });
});

describe('options that override the guesses', () => {
  it('phone_column, fields (rename and leave out), delimiter and default_country', async () => {
    const group = await newGroup('Options');
    const file = 'Home phone;Work phone;First Name;Notes\n0612345678;0698765432;Élise;private\n';
    const response = await post(group, file, {
      phone_column: 'work PHONE',
      fields: JSON.stringify({ 'First Name': 'prenom', Notes: null, 'Home phone': 'home' }),
      delimiter: ';',
      default_country: 'fr',
    });
    expect(response.status).toBe(201);
    expect(await contactsOf(group)).toEqual([['33698765432', { home: '0612345678', prenom: 'Élise' }]]);
  });

  it('keeps the group’s spelling of a field it already has', async () => {
    const group = await newGroup('Known fields');
    await fetch(`${base}/contact-groups/${group.uuid}`, {
      method: 'PUT',
      headers: { ...headers(group), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Known fields', headers: ['First Name'] }),
    });
    expect((await post(group, 'msisdn,first name,Last Name\n447700900151,Al,Smith\n')).status).toBe(201);
    expect(await headersOf(group)).toEqual(['First Name', 'last_name']);
    expect(await contactsOf(group)).toEqual([['447700900151', { 'First Name': 'Al', last_name: 'Smith' }]]);
  });

  it('refuses options that name what the file does not have, or cannot be read, and writes nothing', async () => {
    const group = await newGroup('Bad options');
    const file = 'Phone,Name\n07700900161,Al\n';
    const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
      [
        { phone_column: 'Mobile' },
        { phone_column: ['The file has no column "Mobile". The first row has 2 columns: "Phone", "Name" (read with the delimiter ",").'] },
      ],
      [{ phone_column: '7' }, { phone_column: ['The file has no column "7". The first row has 2 columns: "Phone", "Name" (read with the delimiter ",").'] }],
      [{ fields: '{"Surname":"last_name"}' }, { fields: ['The file has no column "surname"; its columns are "Phone", "Name".'] }],
      [{ fields: '["Name"]' }, { fields: ['The fields must map column headers to field names (or null to leave a column out).'] }],
      [{ fields: 'Name=first' }, { fields: ['The fields must be a JSON object, e.g. {"First Name":"first_name","Notes":null}.'] }],
      [{ fields: '{"Name":"first/name"}' }, { fields: ['A header may only contain letters, digits, spaces and _ . -'] }],
      [{ delimiter: ':' }, { delimiter: ['The delimiter must be one of , ; tab |.'] }],
      [{ default_country: 'XX' }, { default_country: ['The default country XX is not a country code Herald knows.'] }],
      [{ default_country: 'GBR' }, { default_country: ['The default country must be a two-letter country code, e.g. GB.'] }],
      [{ encoding: 'klingon-8' }, { encoding: ['The encoding klingon-8 is not one Herald can read (e.g. utf-8, windows-1252, iso-8859-15, utf-16le).'] }],
    ];
    // The preview reads the options as the import does (and is allowed more requests a minute); two go to the import itself.
    for (const [index, [query, errors]] of cases.entries()) {
      const response = await post(group, file, query, index < 2 ? 'imports' : 'imports/preview');
      expect(response.status, JSON.stringify(query)).toBe(422);
      expect((await response.json()).error.errors, JSON.stringify(query)).toEqual(errors);
    }
    expect(await importCount(group)).toBe(0);
    expect(await contactsOf(group)).toEqual([]);
  });

  it('says what it read when it finds no phone column: the headers and the delimiter', async () => {
    const group = await newGroup('No phone');
    const response = await post(group, 'Name\tEmail\nAl\tal@example.com\n');
    expect(response.status).toBe(422);
    expect((await response.json()).error.errors.file).toEqual([
      'No column holds phone numbers. The first row has 2 columns: "Name", "Email" (read with the delimiter "tab"). Name the column phone_number (or phone, mobile…), or say which it is with phone_column.',
    ]);
  });
});

describe('the preview', () => {
  it('shows how a file would be read, the number each row would store or why not, and writes nothing', async () => {
    const group = await newGroup('Preview');
    const file = `${BOM}Mobile;First Name;;Notes\r\n07700 900171;Zoë;;x\r\ncall me;Al;;y\r\n`;
    const response = await post(group, file, { fields: '{"Notes":null}' }, 'imports/preview');
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({
      format: 'csv',
      encoding: 'utf-8',
      delimiter: ';',
      sheet: null,
      default_country: 'GB',
      has_header: true,
      headers: ['Mobile', 'First Name', '', 'Notes'],
      phone_column: { position: 1, header: 'Mobile', found_by: 'header' },
      columns: [
        { position: 2, header: 'First Name', field: 'first_name' },
        { position: 3, header: '', field: null },
        { position: 4, header: 'Notes', field: null },
      ],
      rows: [
        { row: 2, cells: ['07700 900171', 'Zoë', '', 'x'], phone_number: '447700900171', problem: null, warning: null },
        { row: 3, cells: ['call me', 'Al', '', 'y'], phone_number: null, problem: 'The phone number is not a phone number.', warning: null },
      ],
    });
    expect(await importCount(group)).toBe(0);
    expect(await contactsOf(group)).toEqual([]);
  });

  it('reads only the start of a large file', async () => {
    const group = await newGroup('Large preview');
    const rows = Array.from({ length: 200_000 }, (_, index) => `0770${String(9_000_000 + index).padStart(7, '0')},Name ${index}`);
    const response = await post(group, `phone,name\n${rows.join('\n')}\n`, {}, 'imports/preview');
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.rows).toHaveLength(20);
    expect(data.rows[0]).toMatchObject({ row: 2, phone_number: '447709000000' });
  });
});

describe('phone numbers as people write them (issue 32, point 8)', () => {
  const settings = (group: Group, body: unknown) =>
    fetch(`${base}/team/settings`, { method: 'PUT', headers: { ...headers(group), 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it("imports numbers kept as text with Excel's leading apostrophe, as Shopify exports them", async () => {
    const group = await newGroup('Shopify');
    const response = await post(group, "Phone,First Name\n'+447700900401,Ann\n' 07700 900402,Bo\n");
    expect((await response.json()).data).toMatchObject({ status: 'completed', rows_valid: 2, rows_invalid: 0 });
    expect(await contactsOf(group)).toEqual([
      ['447700900401', { first_name: 'Ann' }],
      ['447700900402', { first_name: 'Bo' }],
    ]);
  });

  it('ends an import that wrote no contact as failed, with its error report, never completed', async () => {
    const group = await newGroup('Nothing');
    const response = await post(group, 'Phone,Name\nnot a number,Ann\n12,Bo\n');
    expect(response.status).toBe(201);
    const { data } = await response.json();
    expect(data).toMatchObject({ status: 'failed', rows_total: 2, rows_valid: 0, rows_invalid: 2, contacts_added: 0 });
    expect(data.error).toMatch(/^Nothing was imported: none of the 2 rows/);
    expect((await get(group, `/imports`)).data[0]).toMatchObject({ status: 'failed' });
    expect((await (await fetch(`${base}/contact-imports/${data.uuid}/errors`, { headers: headers(group) })).json()).meta.total).toBe(2);
    expect(await contactsOf(group)).toEqual([]);
    // A file with a header and no row wrote nothing either.
    const empty = (await (await post(group, 'Phone,Name\n')).json()).data;
    expect(empty).toMatchObject({ status: 'failed', error: 'Nothing was imported: the file has no rows after its header.' });
  });

  it("reads national numbers in the team's default country, which the preview starts from; a name is no country", async () => {
    const group = await newGroup('Berlin');
    const refused = await settings(group, { default_country: 'Germany' });
    expect(refused.status).toBe(422);
    expect(Object.keys((await refused.json()).error.errors)).toEqual(['default_country']);
    const saved = await settings(group, { default_country: 'de' });
    expect((await saved.json()).data.default_country).toBe('DE');

    const file = 'Handy\n0151 23456789\n';
    const preview = (await (await post(group, file, {}, 'imports/preview')).json()).data;
    expect(preview).toMatchObject({ default_country: 'DE', rows: [{ phone_number: '4915123456789', problem: null, warning: null }] });
    expect((await (await post(group, file)).json()).data).toMatchObject({ status: 'completed', contacts_added: 1 });
    expect(await contactsOf(group)).toEqual([['4915123456789', {}]]);
    // The wizard's choice still wins over the team's.
    const british = (await (await post(group, 'Phone\n07700 900123\n', { default_country: 'GB' }, 'imports/preview')).json()).data;
    expect(british.rows[0].phone_number).toBe('447700900123');
  });

  it('warns in the preview about a national number of another country and about landlines', async () => {
    const group = await newGroup('Mixed');
    const file = 'Phone\n0151 23456789\n(201) 555-0123\n+44 20 7946 0000\n07700 900123\n';
    const { rows } = (await (await post(group, file, { default_country: 'GB' }, 'imports/preview')).json()).data;
    expect(rows.map((row: { warning: string | null }) => row.warning)).toEqual([
      expect.stringMatching(/^Not a number of United Kingdom, but a national number of .*Germany/),
      expect.stringMatching(/^A landline in United Kingdom, but a mobile number of .*United States/),
      'A landline: it cannot receive text messages.',
      null,
    ]);
  });
});
