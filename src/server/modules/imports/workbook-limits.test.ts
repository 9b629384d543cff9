/**
 * Each limit of workbook-limits.ts, past which a workbook is refused while it is read (the process
 * test workbook-bomb.test.ts sends a real 300 MB bomb past the shared strings' limit; these take
 * small workbooks and small limits, one limit at a time, so each cap is seen to hold on its own).
 * Seen red: with the count of what the whole workbook unpacks to taken out (`unpacked` never
 * added to), the whole's case read every row; with the row check taken out, the wide row was read.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { WORKBOOK_LIMITS, WorkbookTooLargeError, type WorkbookLimits } from './workbook-limits';
import { xlsxRows } from './xlsx-rows';

/** A workbook of `rows` rows of a number and a text, each text different (so each is a shared string), and a row of `wide` number cells. */
async function workbook(rows: number, wide = 0): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contacts');
  sheet.addRow(['phone_number', 'first_name']);
  for (let i = 0; i < rows; i++) sheet.addRow([`+4477009${String(i).padStart(5, '0')}`, `Name number ${i} ${'x'.repeat(40)}`]);
  if (wide > 0) sheet.addRow(['+447700900999', ...Array.from({ length: wide }, (_, i) => 100_000 + i)]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Reads the whole first sheet under `limits`: the rows, or the error. */
async function read(buffer: Buffer, limits: Partial<WorkbookLimits>): Promise<{ rows: number } | { error: unknown }> {
  let rows = 0;
  try {
    for await (const row of xlsxRows(Readable.from([buffer]), undefined, { ...WORKBOOK_LIMITS, ...limits })) if (row.cells.length > 0) rows += 1;
    return { rows };
  } catch (error) {
    return { error };
  }
}

function refused(outcome: { rows: number } | { error: unknown }, message: RegExp): void {
  expect('error' in outcome, JSON.stringify(outcome)).toBe(true);
  const { error } = outcome as { error: unknown };
  expect(error).toBeInstanceOf(WorkbookTooLargeError);
  expect((error as Error).message).toMatch(message);
}

describe('workbook limits, one at a time', () => {
  it('reads a workbook within every limit whole', async () => {
    expect(await read(await workbook(2_000), {})).toEqual({ rows: 2_001 });
  });

  it('refuses a workbook that unpacks to more than the whole limit', async () => {
    // The sheet is the largest part: the whole's limit stops it, as a part or as the sum of the parts.
    refused(
      await read(await workbook(2_000), { unpackedBytes: 100 * 1024 }),
      /^(The workbook unpacks|Its sheet xl\/worksheets\/sheet1\.xml unpacks) to more than/,
    );
  });

  it('refuses shared strings past their size, and past their count', async () => {
    refused(await read(await workbook(2_000), { sharedStringsBytes: 50 * 1024 }), /^The workbook's shared strings unpack to more than/);
    refused(await read(await workbook(2_000), { sharedStrings: 500 }), /more than 500 different texts \(shared strings\)/);
  });

  it('refuses a part read whole (the styles) past its limit', async () => {
    refused(await read(await workbook(10), { partBytes: 512 }), /^Its part xl\/(styles|workbook)\.xml|^Its part _rels|^Its part xl\/_rels/);
  });

  it('refuses a row or a text past its limit, and reads the same sheet under a larger one', async () => {
    // About 400 kB of XML in one row of 15,000 numbers (no shared string: only the row's own limit applies).
    const buffer = await workbook(10, 15_000);
    refused(await read(buffer, { rowBytes: 100_000 }), /^Its sheet xl\/worksheets\/sheet1\.xml has a row or a text larger than/);
    expect(await read(buffer, { rowBytes: 1024 * 1024 })).toEqual({ rows: 12 });
  });
});
