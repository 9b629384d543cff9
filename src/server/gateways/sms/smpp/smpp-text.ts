import { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS } from '../../../../shared/sms';

/** SMPP data_coding values Herald sends: the SMSC default alphabet (GSM 03.38) and UCS-2. */
export const DATA_CODING = { gsm: 0x00, ia5: 0x01, latin1: 0x03, ucs2: 0x08 } as const;

const ESCAPE = 0x1b;

/**
 * The septet that follows the escape for each character of GSM_EXTENSION_CHARACTERS, in its order
 * (3GPP TS 23.038 §6.2.1.1). The shared module lists the characters; SMPP needs their codes.
 */
const EXTENSION_CODES = [0x0a, 0x14, 0x28, 0x29, 0x2f, 0x3c, 0x3d, 0x3e, 0x40, 0x65];

/** The basic table by code: the shared string skips 0x1B (the escape), so later codes shift by one. */
const BASIC_BY_CODE: readonly string[] = [...GSM_BASIC_CHARACTERS.slice(0, ESCAPE), '', ...GSM_BASIC_CHARACTERS.slice(ESCAPE)];
const CODE_OF_BASIC = new Map(BASIC_BY_CODE.map((character, code) => [character, code] as const).filter(([character]) => character !== ''));
const CODE_OF_EXTENSION = new Map([...GSM_EXTENSION_CHARACTERS].map((character, index) => [character, EXTENSION_CODES[index]!] as const));
const EXTENSION_BY_CODE = new Map([...CODE_OF_EXTENSION].map(([character, code]) => [code, character] as const));

if (BASIC_BY_CODE.length !== 128 || CODE_OF_EXTENSION.size !== EXTENSION_CODES.length) {
  throw new Error('GSM 03.38 tables in src/shared/sms changed shape: update smpp-text.ts');
}

/** GSM 03.38 as SMPP carries it with data_coding 0: one septet per octet, unpacked; extension characters as ESC + code. */
export function encodeGsm(text: string): Buffer {
  const bytes: number[] = [];
  for (const character of text) {
    const basic = CODE_OF_BASIC.get(character);
    if (basic !== undefined) {
      bytes.push(basic);
      continue;
    }
    const extension = CODE_OF_EXTENSION.get(character);
    if (extension === undefined) throw new Error(`character U+${character.codePointAt(0)!.toString(16).toUpperCase()} is not in GSM 03.38`);
    bytes.push(ESCAPE, extension);
  }
  return Buffer.from(bytes);
}

export function decodeGsm(bytes: Buffer): string {
  let text = '';
  for (let index = 0; index < bytes.length; index++) {
    const code = bytes[index]! & 0x7f;
    if (code !== ESCAPE) {
      text += BASIC_BY_CODE[code];
      continue;
    }
    const next = bytes[++index];
    if (next === undefined) break;
    // 23.038: an escape to a code the extension table does not define shows the basic character.
    text += EXTENSION_BY_CODE.get(next & 0x7f) ?? BASIC_BY_CODE[next & 0x7f];
  }
  return text;
}

/** UCS-2 big-endian; characters beyond the BMP stay as their UTF-16 surrogate pairs, as handsets expect. */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

export function decodeUcs2(bytes: Buffer): string {
  const even = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  return even.swap16().toString('utf16le');
}

/** Text of an incoming short message by its data_coding (SMPP 3.4 §5.2.19 and the GSM 03.38 coding groups). */
export function decodeText(bytes: Buffer, dataCoding: number): string {
  switch (alphabetOf(dataCoding)) {
    case 'gsm':
      return decodeGsm(bytes);
    case 'ia5':
      return bytes.toString('ascii');
    case 'ucs2':
      return decodeUcs2(bytes);
    default:
      return bytes.toString('latin1');
  }
}

type Alphabet = 'gsm' | 'ia5' | 'latin1' | 'ucs2';

function alphabetOf(dataCoding: number): Alphabet {
  if (dataCoding === DATA_CODING.gsm) return 'gsm';
  if (dataCoding === DATA_CODING.ia5) return 'ia5';
  if (dataCoding === DATA_CODING.ucs2) return 'ucs2';
  if (dataCoding < 0x10) return 'latin1'; // 3 is Latin-1; the other SMPP-specific codings are read as 8-bit at best
  // GSM coding groups: 0xF0–0xFF (bit 2: 8-bit data) and 00xx/01xx general groups (bits 3–2: GSM, 8-bit, UCS-2).
  if ((dataCoding & 0xf0) === 0xf0) return dataCoding & 0x04 ? 'latin1' : 'gsm';
  if ((dataCoding & 0x80) === 0 && (dataCoding & 0x20) === 0) return (['gsm', 'latin1', 'ucs2'] as const)[(dataCoding >> 2) & 0x03] ?? 'latin1';
  return 'latin1';
}
