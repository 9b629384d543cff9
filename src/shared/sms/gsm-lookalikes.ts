import { GSM_BASIC_CHARACTERS, GSM_SEPTETS, isHighSurrogate, isLowSurrogate } from './gsm-charset';

/** A character that forces UTF16, at its UTF-16 index (an emoji is one entry of two code units). */
export interface NonGsmCharacter {
  index: number;
  character: string;
}

/** A non-GSM character (or a letter + combining accent) that the editor can swap for GSM text. */
export interface GsmLookalike {
  index: number;
  character: string;
  /** GSM text that reads the same; '' when the character is invisible and is simply dropped. */
  replacement: string;
}

const SPACE = ' ';

// Only characters a reader cannot tell from their GSM replacement: typographic punctuation and
// invisible spacing. Accented letters are not folded (é → e would change the text).
const LOOKALIKES = new Map<number, string>([
  [0x2018, "'"],
  [0x2019, "'"],
  [0x201a, "'"],
  [0x201b, "'"], // ‘ ’ ‚ ‛
  [0x00b4, "'"],
  [0x0060, "'"], // ´ `
  [0x201c, '"'],
  [0x201d, '"'],
  [0x201e, '"'],
  [0x201f, '"'], // “ ” „ ‟
  [0x00ab, '"'],
  [0x00bb, '"'], // « »
  [0x2010, '-'],
  [0x2011, '-'],
  [0x2012, '-'],
  [0x2013, '-'],
  [0x2014, '-'],
  [0x2212, '-'], // hyphens, – — −
  [0x2022, '-'], // •
  [0x2026, '...'], // …
  [0x00a0, SPACE],
  [0x202f, SPACE],
  [0x205f, SPACE],
  [0x3000, SPACE],
  [0x200b, ''],
  [0xfeff, ''],
  [0x00ad, ''],
  [0x2060, ''], // zero-width space, BOM, soft hyphen, word joiner
  // Canonical singletons: Unicode itself says these are the GSM letters K, Ω and Å.
  [0x212a, 'K'],
  [0x2126, 'Ω'],
  [0x212b, 'Å'],
]);
for (let space = 0x2000; space <= 0x200a; space++) LOOKALIKES.set(space, SPACE);

// Text pasted from macOS or typed with dead keys may carry "e" + U+0301 instead of "é"; both are
// the same text (NFC), so compose the pairs whose composition is a GSM letter.
const DECOMPOSED = new Map<string, string>();
for (const character of GSM_BASIC_CHARACTERS) {
  const decomposed = character.normalize('NFD');
  if (decomposed.length === 2) DECOMPOSED.set(decomposed, character);
}

export function nonGsmCharacters(text: string): NonGsmCharacter[] {
  const septetsOf = GSM_SEPTETS;
  const found: NonGsmCharacter[] = [];
  for (let index = 0; index < text.length; index++) {
    const codeUnit = text.charCodeAt(index);
    if (septetsOf[codeUnit] !== 0) continue;
    const pair = isHighSurrogate(codeUnit) && isLowSurrogate(text.charCodeAt(index + 1));
    found.push({ index, character: text.slice(index, pair ? index + 2 : index + 1) });
    if (pair) index++;
  }
  return found;
}

/** The non-GSM characters of `text` that have a faithful GSM replacement, in order. */
export function gsmLookalikes(text: string): GsmLookalike[] {
  const found: GsmLookalike[] = [];
  for (const { index, character } of nonGsmCharacters(text)) {
    const replacement = LOOKALIKES.get(character.charCodeAt(0));
    if (character.length === 1 && replacement !== undefined) {
      found.push({ index, character, replacement });
      continue;
    }
    const composed = index > 0 ? DECOMPOSED.get(text.slice(index - 1, index + 1)) : undefined;
    if (composed !== undefined) found.push({ index: index - 1, character: text.slice(index - 1, index + 1), replacement: composed });
  }
  return found;
}

/** The editor's one-click fix: every look-alike replaced; other non-GSM characters are kept. */
export function replaceLookalikes(text: string): string {
  // Dropping an invisible character can bring a letter next to a combining accent
  // ("e\u200B\u0301"), so repeat; each pass removes at least one non-GSM character.
  let current = text;
  for (let found = gsmLookalikes(current); found.length > 0; found = gsmLookalikes(current)) {
    const parts: string[] = [];
    let start = 0;
    for (const lookalike of found) {
      parts.push(current.slice(start, lookalike.index), lookalike.replacement);
      start = lookalike.index + lookalike.character.length;
    }
    parts.push(current.slice(start));
    current = parts.join('');
  }
  return current;
}
