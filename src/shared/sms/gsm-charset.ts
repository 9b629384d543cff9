/**
 * GSM 03.38 (3GPP TS 23.038) default alphabet, as Twilio's segment calculator and Infobip read it.
 * Position 0x09 is the capital Ç printed in the standard (some tables use ç); we follow the
 * standard and the reference calculator so the editor and the gateway agree.
 */

/** The basic character set in table order, 0x00–0x7F, without 0x1B (the escape to the extension table). */
export const GSM_BASIC_CHARACTERS =
  '@£$¥èéùìòÇ\nØø\rÅå' +
  'Δ_ΦΓΛΩΠΨΣΘΞ' + /* 0x1B ESC */ 'ÆæßÉ' +
  ' !"#¤%&\'()*+,-./' +
  '0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNO' +
  'PQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmno' +
  'pqrstuvwxyzäöñüà';

/** The extension table: each is sent as ESC + one septet, so it costs two septets. */
export const GSM_EXTENSION_CHARACTERS = '\f^{}\\[~]|€';

// Every GSM character is below U+20AD (€ is U+20AC), so a small typed array answers in O(1)
// without a Map lookup per keystroke.
const SEPTETS = new Uint8Array(0x20ad);
for (const character of GSM_BASIC_CHARACTERS) SEPTETS[character.charCodeAt(0)] = 1;
for (const character of GSM_EXTENSION_CHARACTERS) SEPTETS[character.charCodeAt(0)] = 2;

/** Septets a UTF-16 code unit costs in GSM 7-bit: 1 (basic), 2 (extension), 0 when it is not GSM at all. */
export function gsmSeptets(codeUnit: number): 0 | 1 | 2 {
  return (codeUnit < SEPTETS.length ? (SEPTETS[codeUnit] ?? 0) : 0) as 0 | 1 | 2;
}

export function isGsmCharacter(character: string): boolean {
  return character.length === 1 && gsmSeptets(character.charCodeAt(0)) !== 0;
}

export function isHighSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xd800 && codeUnit <= 0xdbff;
}

export function isLowSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xdc00 && codeUnit <= 0xdfff;
}
