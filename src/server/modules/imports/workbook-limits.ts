/**
 * Limits that keep reading a workbook within bounded memory, whatever it unpacks to. An XLSX is a
 * zip: 12 MB over the wire can inflate to gigabytes of XML, and exceljs keeps every shared string
 * in memory. `watchWorkbook` reads the same upload as exceljs, through the same zip reader
 * (unzipper, so both see the same entries, however the zip is built), and counts what each entry
 * really inflates to; the sizes a zip declares are checked first but never trusted alone. It fails
 * as soon as a limit is passed, while exceljs, fed the same bytes at the same pace, holds no more
 * than the limit.
 */
import type { Writable } from 'node:stream';
import unzipper from 'unzipper';

const MiB = 1024 * 1024;

export const WORKBOOK_LIMITS = {
  /** Everything the workbook unpacks to, every entry counted. */
  unpackedBytes: 1024 * MiB,
  /** The shared strings, which exceljs keeps in memory while the sheets are read. */
  sharedStringsBytes: 64 * MiB,
  sharedStrings: 1_000_000,
  /** The other parts exceljs reads whole: the workbook, its relationships, its styles. */
  partBytes: 16 * MiB,
  /** Between two rows of a sheet (or before the first): a row, or a text, exceljs holds whole. */
  rowBytes: 8 * MiB,
};
export type WorkbookLimits = typeof WORKBOOK_LIMITS;

/** A workbook past one of the limits: refused (422), with what was too large. */
export class WorkbookTooLargeError extends Error {}

// The names exceljs gives these parts (its own patterns, unanchored as they are there).
const SHEET = /xl\/worksheets\/sheet\d+[.]xml/;
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const WHOLE_PARTS = new Set(['_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/styles.xml']);

const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;

type Entry = NodeJS.ReadableStream & { path: string; vars?: { uncompressedSize?: number; flags?: number }; autodrain(): void };

/** Counts the occurrences of `needle` in a stream of chunks (a match cut between two chunks included). */
function counter(needle: Buffer) {
  let carry = Buffer.alloc(0);
  return (chunk: Buffer, onMatch: (endOffset: number) => void) => {
    const text = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) onMatch(at + needle.length - carry.length);
    carry = Buffer.from(text.subarray(Math.max(0, text.length - (needle.length - 1))));
  };
}

/**
 * A writable to pipe the upload into beside exceljs. `failed` settles with the first limit passed
 * (or with the zip reader's own error); it never resolves otherwise. `finished` resolves when the
 * whole zip was read within the limits.
 */
export function watchWorkbook(limits: WorkbookLimits = WORKBOOK_LIMITS) {
  let refuse!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (refuse = reject));
  failed.catch(() => undefined);
  let done = false;
  let unpacked = 0;
  const zip = unzipper.Parse() as unknown as Writable & NodeJS.EventEmitter;
  const fail = (error: Error) => {
    if (done) return;
    done = true;
    refuse(error);
    zip.removeAllListeners('entry');
    zip.on('error', () => undefined);
    zip.destroy();
  };
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  zip.on('error', (error: Error) => fail(error));
  zip.on('close', () => {
    if (!done) finish();
  });
  zip.on('entry', (entry: Entry) => {
    const name = entry.path;
    const isSheet = SHEET.test(name);
    const isStrings = name === SHARED_STRINGS;
    const cap = isStrings ? limits.sharedStringsBytes : WHOLE_PARTS.has(name) ? limits.partBytes : limits.unpackedBytes;
    const what = isStrings ? "The workbook's shared strings unpack" : isSheet ? `Its sheet ${name} unpacks` : `Its part ${name} unpacks`;
    // What the zip declares (absent, 0, with a data descriptor) is checked first, then what is really inflated.
    const declared = entry.vars?.uncompressedSize ?? 0;
    if (declared > cap || unpacked + declared > limits.unpackedBytes) {
      entry.autodrain();
      return fail(tooLarge(declared > cap ? what : WHOLE, declared > cap ? cap : limits.unpackedBytes));
    }
    let size = 0;
    let strings = 0;
    let sinceRow = 0;
    const strings$ = counter(Buffer.from('<si'));
    const rows$ = counter(Buffer.from('<row'));
    entry.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      unpacked += chunk.length;
      if (unpacked > limits.unpackedBytes) return fail(tooLarge(WHOLE, limits.unpackedBytes));
      if (size > cap) return fail(tooLarge(what, cap));
      if (isStrings) {
        strings$(chunk, () => (strings += 1));
        if (strings > limits.sharedStrings)
          return fail(new WorkbookTooLargeError(`The workbook has more than ${limits.sharedStrings.toLocaleString('en')} different texts (shared strings).`));
      }
      if (isSheet) {
        let lastRow = -1;
        rows$(chunk, (end) => (lastRow = end));
        sinceRow = lastRow >= 0 ? chunk.length - lastRow : sinceRow + chunk.length;
        if (sinceRow > limits.rowBytes) return fail(new WorkbookTooLargeError(`Its sheet ${name} has a row or a text larger than ${mib(limits.rowBytes)}.`));
      }
    });
  });
  return { input: zip as Writable, failed, finished };
}

const WHOLE = 'The workbook unpacks';
const tooLarge = (what: string, cap: number) =>
  new WorkbookTooLargeError(`${what} to more than ${mib(cap)}, more than Herald reads; split it, or save it as CSV.`);
