/**
 * GSM 03.38 (3GPP TS 23.038) default alphabet, as Twilio's segment calculator and Infobip read it.
 * Position 0x09 is the capital Ç printed in the standard (some tables use ç); we follow the
 * standard and the reference calculator so the editor and the gateway agree.
 */

/** The basic character set in table order, 0x00–0x7F, without 0x1B (the escape to the extension table). */
export const GSM_BASIC_CHARACTERS =
  '@£$¥èéùìòÇ\nØø\rÅå' +
  'Δ_ΦΓΛΩΠΨΣΘΞ' +
  /* 0x1B ESC */ 'ÆæßÉ' +
  ' !"#¤%&\'()*+,-./' +
  '0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNO' +
  'PQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmno' +
  'pqrstuvwxyzäöñüà';

/** The extension table: each is sent as ESC + one septet, so it costs two septets. */
export const GSM_EXTENSION_CHARACTERS = '\f^{}\\[~]|€';

/**
 * Septets each UTF-16 code unit costs in GSM 7-bit: 1 (basic), 2 (extension), 0 (not GSM).
 * One entry per code unit (64 KB) so a lookup needs no bounds test. Hot loops read it through a
 * local variable: calling a tiny imported helper per character was 10× slower under V8 once
 * the module was reached through a re-export.
 */
export const GSM_SEPTETS: Readonly<Uint8Array> = buildSeptetTable();

function buildSeptetTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (const character of GSM_BASIC_CHARACTERS) table[character.charCodeAt(0)] = 1;
  for (const character of GSM_EXTENSION_CHARACTERS) table[character.charCodeAt(0)] = 2;
  return table;
}

export function isGsmCharacter(character: string): boolean {
  return character.length === 1 && GSM_SEPTETS[character.charCodeAt(0)] !== 0;
}

export function isHighSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xd800 && codeUnit <= 0xdbff;
}

export function isLowSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xdc00 && codeUnit <= 0xdfff;
}
