/**
 * XLSX workbooks (issue 20, point 2), sent over a real socket with the workbook Content-Type: the
 * first sheet or the one named, cells as a person sees them (a phone number stored as a number
 * comes back in full, rich text joined, a date as a date, a formula as its result), the same
 * mapping as CSV, the preview, and clear 422s. What is checked is what the team reads back over the
 * API: the group's contacts.
 *
 * Seen red: without the formula case in `cellText`, the Score came back empty instead of the
 * formula's result; with the sheet name ignored, `sheet=other` imported the first sheet.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importClient, type ImportGroup } from '../../testing/import-client';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let client: Awaited<ReturnType<typeof importClient>>;

beforeAll(async () => {
  t = await createTestApp();
  client = await importClient(t);
});
afterAll(() => t.close());

const newGroup = (name: string) => client.newGroup(name);
const post = (group: ImportGroup, file: Uint8Array, query: Record<string, string> = {}, path = 'imports') => client.post(group, file, query, path, 'xlsx');
const contactsOf = (group: ImportGroup) => client.contactsOf(group);

async function workbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const contacts = book.addWorksheet('Contacts');
  contacts.addRow(['Mobile', 'First Name', 'Joined', 'Score']);
  contacts.addRow([
    447700900201,
    { richText: [{ text: 'Zo' }, { text: 'ë', font: { bold: true } }] },
    new Date(Date.UTC(2026, 0, 15)),
    { formula: '1+1', result: 2 },
  ]);
  contacts.addRow(['07700 900202', 'Bo', null, 7.5]);
  const other = book.addWorksheet('Other');
  other.addRow(['Phone']);
  other.addRow(['07700900203']);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

describe('XLSX workbooks', () => {
  it('imports the first sheet with no options, cells as a person sees them', async () => {
    const group = await newGroup('Workbook');
    const response = await post(group, await workbook());
    expect(response.status).toBe(201);
    expect((await response.json()).data).toMatchObject({ status: 'completed', rows_valid: 2, contacts_added: 2 });
    expect(await contactsOf(group)).toEqual([
      ['447700900201', { first_name: 'Zoë', joined: '2026-01-15', score: '2' }],
      ['447700900202', { first_name: 'Bo', score: '7.5' }],
    ]);
  });

  it('imports the sheet named, and says which sheets there are when it has none of that name', async () => {
    const group = await newGroup('Named sheet');
    expect((await post(group, await workbook(), { sheet: 'other' })).status).toBe(201);
    expect(await contactsOf(group)).toEqual([['447700900203', {}]]);

    const missing = await post(group, await workbook(), { sheet: 'Leads' });
    expect(missing.status).toBe(422);
    expect((await missing.json()).error.errors).toEqual({ sheet: ['The workbook has no sheet "Leads"; its sheets are "Contacts", "Other".'] });
  });

  it('previews a workbook: the sheet, the mapping and the first rows with their numbers in the sheet', async () => {
    const group = await newGroup('Workbook preview');
    const response = await post(group, await workbook(), {}, 'imports/preview');
    expect(response.status).toBe(200);
    expect((await response.json()).data).toMatchObject({
      format: 'xlsx',
      encoding: null,
      delimiter: null,
      sheet: 'Contacts',
      phone_column: { position: 1, header: 'Mobile', found_by: 'header' },
      columns: [
        { position: 2, header: 'First Name', field: 'first_name' },
        { position: 3, header: 'Joined', field: 'joined' },
        { position: 4, header: 'Score', field: 'score' },
      ],
      rows: [
        { row: 2, phone_number: '447700900201', problem: null },
        { row: 3, phone_number: '447700900202', problem: null },
      ],
    });
    expect(await contactsOf(group)).toEqual([]);
  });

  it('answers 422 for a file that is not a workbook, and writes nothing', async () => {
    const group = await newGroup('Not a workbook');
    const response = await post(group, new TextEncoder().encode('phone_number\n07700900204\n'));
    expect(response.status).toBe(422);
    expect((await response.json()).error.errors.file[0]).toMatch(/^The file is not a workbook Herald can read/);
    expect(await contactsOf(group)).toEqual([]);
  });

  it('streams a workbook of 100,000 rows', async () => {
    const group = await newGroup('Large workbook');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Big');
    sheet.addRow(['phone', 'name']);
    for (let index = 0; index < 100_000; index++) sheet.addRow([447700000000 + index, `Name ${index}`]);
    const file = new Uint8Array(await book.xlsx.writeBuffer());
    const response = await post(group, file);
    expect(response.status).toBe(201);
    expect((await response.json()).data).toMatchObject({ status: 'completed', rows_total: 100_000, rows_valid: 100_000, contacts_added: 100_000 });
  }, 120_000);
});
