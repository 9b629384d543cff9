import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS } from './gsm-charset';
import { gsmLookalikes, nonGsmCharacters, replaceLookalikes } from './gsm-lookalikes';
import { classify } from './sms-segments';

const LOOKALIKE_CHARACTERS = [
  '‘',
  '’',
  '‚',
  '‛',
  '“',
  '”',
  '„',
  '‟',
  '–',
  '—',
  '−',
  '‐',
  '‑',
  '‒',
  '…',
  '•',
  '«',
  '»',
  '´',
  '`',
  '\u00a0',
  '\u2000',
  '\u2005',
  '\u200a',
  '\u202f',
  '\u205f',
  '\u3000',
  '\u200b',
  '\ufeff',
  '\u00ad',
  '\u2060',
  'e\u0301',
  'A\u030a',
  'n\u0303',
  'u\u0308',
  'C\u0327',
  '\u212b',
  '\u2126',
];

describe('the characters that force UTF16', () => {
  it('are listed with their index, an emoji as one entry', () => {
    expect(nonGsmCharacters('Hello')).toEqual([]);
    expect(nonGsmCharacters('€{}[]')).toEqual([]);
    expect(nonGsmCharacters('“Hi” 😀!')).toEqual([
      { index: 0, character: '“' },
      { index: 3, character: '”' },
      { index: 5, character: '😀' },
    ]);
  });

  it('include a lone surrogate as a single code unit', () => {
    expect(nonGsmCharacters('a\ud83db')).toEqual([{ index: 1, character: '\ud83d' }]);
  });
});

describe('the one-click look-alike fix', () => {
  it('turns curly quotes into straight ones, making the body GSM_7BIT', () => {
    const body = '‘Don’t miss “Summer Sale”’';
    expect(classify(body)).toBe('UTF16');
    expect(replaceLookalikes(body)).toBe("'Don't miss \"Summer Sale\"'");
    expect(classify(replaceLookalikes(body))).toBe('GSM_7BIT');
  });

  it('replaces dashes, ellipsis, bullets, guillemets and accents', () => {
    expect(replaceLookalikes('10–20 — wait… • «oui» ´x` 5 − 3')).toBe('10-20 - wait... - "oui" \'x\' 5 - 3');
  });

  it('turns unusual spaces into a space and drops invisible characters', () => {
    expect(replaceLookalikes('a\u00a0b\u2009c\u3000d\u200be\ufefff')).toBe('a b c def');
  });

  it('composes a letter followed by a combining accent into the GSM letter', () => {
    expect(replaceLookalikes('Cafe\u0301 Sto\u0308r')).toBe('Café Stör');
    expect(classify(replaceLookalikes('Cafe\u0301'))).toBe('GSM_7BIT');
  });

  it('keeps characters that have no faithful GSM equivalent', () => {
    expect(replaceLookalikes('Ça va? ç á 😀 Привет')).toBe('Ça va? ç á 😀 Привет');
  });

  it('lists each look-alike with its index and replacement for the editor', () => {
    expect(gsmLookalikes('“Hi”… café ç\u200b')).toEqual([
      { index: 0, character: '“', replacement: '"' },
      { index: 3, character: '”', replacement: '"' },
      { index: 4, character: '…', replacement: '...' },
      { index: 12, character: '\u200b', replacement: '' },
    ]);
    expect(gsmLookalikes('cafe\u0301')).toEqual([{ index: 3, character: 'e\u0301', replacement: 'é' }]);
  });

  it('composes an accent that a dropped invisible character had kept apart', () => {
    expect(replaceLookalikes('e\u200b\u0301')).toBe('é');
  });
});

describe('look-alike properties', () => {
  const gsmCharacter = fc.constantFrom(...GSM_BASIC_CHARACTERS, ...GSM_EXTENSION_CHARACTERS);
  const lookalike = fc.constantFrom(...LOOKALIKE_CHARACTERS);

  it('a body of GSM characters and look-alikes becomes GSM', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(gsmCharacter, lookalike), { maxLength: 300 }), (characters) => {
        expect(classify(replaceLookalikes(characters.join('')))).not.toBe('UTF16');
      }),
      { numRuns: 400 },
    );
  });

  it('no look-alike is left in any body, and GSM text is never touched', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(gsmCharacter, lookalike, fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 300 }), (characters) => {
        const fixed = replaceLookalikes(characters.join(''));
        expect(gsmLookalikes(fixed)).toEqual([]);
        expect(nonGsmCharacters(fixed).length).toBeLessThanOrEqual(nonGsmCharacters(characters.join('')).length);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.array(gsmCharacter, { maxLength: 300 }), (characters) => {
        expect(replaceLookalikes(characters.join(''))).toBe(characters.join(''));
      }),
      { numRuns: 200 },
    );
  });
});
