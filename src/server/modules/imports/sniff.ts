/**
 * Reading a contacts file as marketers have it: which encoding, which delimiter, which column holds
 * the phone number and what the others become. Pure functions over the first part of the file (the
 * sample); import-file.ts applies what they find to the whole stream.
 */
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { ContactGroupInputSchema } from '../../../shared/contract';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';

export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** How the delimiter is named in messages and in the API (`tab` for the tab character). */
export const delimiterName = (delimiter: Delimiter) => (delimiter === '\t' ? 'tab' : delimiter);

/** How a CSV's first row was read, for messages. */
export const readWith = (delimiter: Delimiter) => `read with the delimiter "${delimiterName(delimiter)}"`;

export type Encoding = { name: string; bomLength: number };

const MAX_FIELDS = 50;

/**
 * The encoding of the file from its first bytes: a byte order mark says it (UTF-8, UTF-16); text
 * that is valid UTF-8 is UTF-8; anything else is what a detector makes of it, a Latin-1 guess
 * read as Windows-1252 (what Excel writes, and what browsers do too). `complete` says the sample is
 * the whole file, so a multi-byte character cut at its end is not an excuse.
 */
export function sniffEncoding(sample: Buffer, complete: boolean): Encoding {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return { name: 'utf-8', bomLength: 3 };
  if (sample[0] === 0xff && sample[1] === 0xfe) return { name: 'utf-16le', bomLength: 2 };
  if (sample[0] === 0xfe && sample[1] === 0xff) return { name: 'utf-16be', bomLength: 2 };
  if (isUtf8(sample, complete)) return { name: 'utf-8', bomLength: 0 };
  const guess = chardet.detect(sample)?.toLowerCase() ?? '';
  if (guess === '' || guess === 'iso-8859-1' || guess.startsWith('utf') || !iconv.encodingExists(guess)) return { name: 'windows-1252', bomLength: 0 };
  return { name: guess, bomLength: 0 };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(sample: Buffer, complete: boolean): boolean {
  // A character cut at the end of an incomplete sample starts at most 3 bytes from it.
  for (let cut = 0; cut <= (complete ? 0 : 3); cut++) {
    try {
      strictUtf8.decode(sample.subarray(0, sample.length - cut));
      return true;
    } catch {
      // Try without one more trailing byte.
    }
  }
  return false;
}

/** The sample as text, without a byte order mark and without a character cut at its end. */
export function decodeSample(sample: Buffer, encoding: Encoding): string {
  const text = iconv.decode(sample.subarray(encoding.bomLength), encoding.name);
  return text.replace(/\uFFFD$/u, '');
}

/**
 * The delimiter the sample's lines agree on: for each candidate, how many it has outside quotes on
 * the first line and on each of the next ones; the one whose count the most lines repeat wins,
 * then the one with more columns. A file of one column is read with commas.
 */
export function sniffDelimiter(text: string): Delimiter {
  const lines = countPerLine(text, 30);
  let best: { delimiter: Delimiter; agree: number; columns: number } = { delimiter: ',', agree: -1, columns: 0 };
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => line[delimiter]);
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const rest = counts.slice(1);
    const agree = rest.length === 0 ? 1 : rest.filter((count) => count === first).length / rest.length;
    if (agree > best.agree || (agree === best.agree && first > best.columns)) best = { delimiter, agree, columns: first };
  }
  return best.delimiter;
}

/** Per line (quoted line breaks belong to their line), how many of each delimiter stand outside quotes. */
function countPerLine(text: string, maxLines: number): Array<Record<Delimiter, number>> {
  const lines: Array<Record<Delimiter, number>> = [];
  const empty = (): Record<Delimiter, number> => ({ ',': 0, ';': 0, '\t': 0, '|': 0 });
  let current = empty();
  let quoted = false;
  let blank = true;
  for (let index = 0; index < text.length && lines.length < maxLines; index++) {
    const character = text[index]!;
    if (character === '"') quoted = !quoted;
    else if (!quoted && (character === '\n' || character === '\r')) {
      if (!blank) lines.push(current);
      current = empty();
      blank = true;
      continue;
    } else if (!quoted && character in current) current[character as Delimiter] += 1;
    blank = false;
  }
  // The last line counts only when the sample ends with it (an incomplete line would disagree).
  if (!blank && lines.length === 0) lines.push(current);
  return lines;
}

/** What the caller asked for, overriding the guesses. */
export type MappingOptions = {
  /** The phone column's header (any case), or its 1-based position. */
  phoneColumn?: string;
  /** Header → field name; null leaves the column out. */
  fields?: Record<string, string | null>;
  /** The consent column's header (any case), or its 1-based position: yes/no, read per row, filling no field. */
  consentColumn?: string;
  defaultCountry: string;
};

export type ColumnRole = { index: number; header: string; field: string | null };

export type Mapping = {
  /** False when the first row is already a contact (a file of numbers without a header). */
  hasHeader: boolean;
  width: number;
  phone: { index: number; header: string; found: 'option' | 'header' | 'content' };
  /** The other columns, each with the field it fills (null: left out). */
  columns: ColumnRole[];
  /** The consent column ("Accepts SMS Marketing": yes or no), when the caller named one. */
  consent: { index: number; header: string } | null;
};

// Header spellings of a phone column, compared without case, spaces, _ - . and in this order of
// preference (a file with Phone and Mobile columns is texted on the mobile).
const PHONE_HEADERS = [
  'phonenumber',
  'mobile',
  'mobilenumber',
  'mobilephone',
  'mobileno',
  'msisdn',
  'cell',
  'cellphone',
  'cellnumber',
  'phone',
  'phoneno',
  'telephone',
  'telephonenumber',
  'tel',
  'number',
  // Common in European exports.
  'handy',
  'mobil',
  'mobiel',
  'movil',
  'móvil',
  'portable',
  'cellulare',
  'telefon',
  'telefono',
  'teléfono',
  'telefoon',
  'téléphone',
];
const headerKey = (header: string) => header.toLowerCase().replace(/[\s_.-]+/gu, '');

/** A header as a field name a template can use: `First Name` → `first_name`. */
export function fieldNameOf(header: string): string {
  return header
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/gu, '')
    .slice(0, 64);
}

/**
 * The phone column and what every other column becomes. The phone column is the one the caller
 * names, else the first header spelled like one (by preference), else the column whose sample cells
 * are phone numbers (the most, and at least half of those filled). A ValidationError says what was seen when none
 * is found (`readAs` says how the row was read: `read with the delimiter ";"`, `in the sheet "Contacts"`).
 * Other columns keep the group's spelling of a field it knows, else become snake_case.
 */
export function mapColumns(header: string[], sample: string[][], groupHeaders: string[], options: MappingOptions, readAs: string): Mapping {
  const names = header.map((name) => name.trim());
  const phone = findPhoneColumn(names, sample, options, readAs);
  const hasHeader = !(phone.found === 'content' && normalizePhoneNumber(names[phone.index] ?? '', options.defaultCountry).ok);
  const chosen = options.fields
    ? new Map(Object.entries(options.fields).map(([key, value]) => [key.trim().toLowerCase(), value]))
    : new Map<string, string | null>();
  const known = new Map(groupHeaders.flatMap((name) => [[name.toLowerCase(), name] as const, [fieldNameOf(name), name] as const]));
  const unknownOption = [...chosen.keys()].find((key) => !names.some((name) => name.toLowerCase() === key));
  if (hasHeader && unknownOption !== undefined)
    throw ValidationError.field('fields', `The file has no column "${unknownOption}"; its columns are ${names.map((name) => `"${name}"`).join(', ')}.`);

  const consent = findConsentColumn(names, phone.index, options.consentColumn);
  const columns: ColumnRole[] = names.flatMap((name, index) => {
    if (index === phone.index || index === consent?.index) return [];
    const headerName = hasHeader ? name : `column ${index + 1}`;
    const option = hasHeader ? chosen.get(name.toLowerCase()) : undefined;
    let field: string | null;
    if (option !== undefined) field = option === null || option.trim() === '' ? null : option.trim();
    // A column without a name (a spreadsheet's trailing delimiter) carries nothing a template can use.
    else if (hasHeader && name === '') field = null;
    else {
      const base = hasHeader ? name : `column_${index + 1}`;
      field = known.get(base.toLowerCase()) ?? known.get(fieldNameOf(base)) ?? (fieldNameOf(base) || null);
    }
    return [{ index, header: headerName, field }];
  });

  const fields = columns.flatMap((column) => (column.field === null ? [] : [column.field]));
  const checked = ContactGroupInputSchema.shape.headers.safeParse(fields);
  if (!checked.success) throw new ValidationError({ fields: checked.error.issues.map((issue) => issue.message) });
  const inGroup = new Set(groupHeaders.map((name) => name.toLowerCase()));
  const added = fields.filter((name) => !inGroup.has(name.toLowerCase())).length;
  if (groupHeaders.length + added > MAX_FIELDS) throw ValidationError.field('file', `The group would have more than ${MAX_FIELDS} custom fields.`);
  return {
    hasHeader,
    width: names.length,
    phone: { ...phone, header: hasHeader ? (names[phone.index] ?? '') : `column ${phone.index + 1}` },
    columns,
    consent: consent && { index: consent.index, header: hasHeader ? (names[consent.index] ?? '') : `column ${consent.index + 1}` },
  };
}

/** The column the caller named as the consent column (by header, any case, or position from 1); never the phone column. */
function findConsentColumn(names: string[], phoneIndex: number, wanted: string | undefined): { index: number } | null {
  if (wanted === undefined) return null;
  const name = wanted.trim();
  const byName = names.findIndex((header) => header.toLowerCase() === name.toLowerCase());
  const byPosition = /^\d+$/.test(name) ? Number(name) - 1 : -1;
  const index = byName >= 0 ? byName : byPosition >= 0 && byPosition < names.length ? byPosition : -1;
  if (index < 0)
    throw ValidationError.field('consent_column', `The file has no column "${name}"; its columns are ${names.map((header) => `"${header}"`).join(', ')}.`);
  if (index === phoneIndex) throw ValidationError.field('consent_column', 'The consent column cannot be the phone column.');
  return { index };
}

function findPhoneColumn(names: string[], sample: string[][], options: MappingOptions, readAs: string): { index: number; found: Mapping['phone']['found'] } {
  const seen = `The first row has ${names.length === 1 ? 'one column' : `${names.length} columns`}: ${names.map((name) => `"${name}"`).join(', ')} (${readAs}).`;
  if (options.phoneColumn !== undefined) {
    const wanted = options.phoneColumn.trim();
    const byName = names.findIndex((name) => name.toLowerCase() === wanted.toLowerCase());
    const byPosition = /^\d+$/.test(wanted) ? Number(wanted) - 1 : -1;
    const index = byName >= 0 ? byName : byPosition >= 0 && byPosition < names.length ? byPosition : -1;
    if (index < 0) throw ValidationError.field('phone_column', `The file has no column "${wanted}". ${seen}`);
    return { index, found: 'option' };
  }
  const keys = names.map(headerKey);
  for (const spelling of PHONE_HEADERS) {
    const matches = keys.flatMap((key, index) => (key === spelling ? [index] : []));
    if (matches.length > 1)
      throw ValidationError.field('file', `The header has more than one ${names[matches[0]!]} column; say which holds the phone numbers with phone_column.`);
    if (matches.length === 1) return { index: matches[0]!, found: 'header' };
  }
  // The first row counts too when it is a number itself (a list without a header).
  let best = { index: -1, share: 0 };
  for (let index = 0; index < names.length; index++) {
    const isNumber = (cell: string) => normalizePhoneNumber(cell, options.defaultCountry).ok;
    const first = names[index] ?? '';
    const cells = [...(isNumber(first) ? [first] : []), ...sample.slice(0, 50).map((row) => (row[index] ?? '').trim())].filter((cell) => cell !== '');
    if (cells.length === 0) continue;
    const share = cells.filter(isNumber).length / cells.length;
    if (share >= 0.5 && share > best.share) best = { index, share };
  }
  if (best.index >= 0) return { index: best.index, found: 'content' };
  throw ValidationError.field(
    'file',
    `No column holds phone numbers. ${seen} Name the column phone_number (or phone, mobile…), or say which it is with phone_column.`,
  );
}
