import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripForUtf8 } from './utf8-strip';

const isForbidden = (character: string) => {
  const codeUnit = character.charCodeAt(0);
  const control = (codeUnit < 0x20 && character !== '\n' && character !== '\r') || (codeUnit >= 0x7f && codeUnit <= 0x9f);
  return control || codeUnit === 0xfffd || codeUnit === 0xfffe || codeUnit === 0xffff || (codeUnit >= 0xfdd0 && codeUnit <= 0xfdef);
};

describe('force_utf8: stripping what cannot be carried as text', () => {
  it('removes U+FFFD and a lone surrogate but keeps emoji and line breaks', () => {
    expect(stripForUtf8('Hi \ufffd there\ud83d!\n😀 bye\r\n')).toBe('Hi  there!\n😀 bye\r\n');
    expect(stripForUtf8('\udc00a\ud800')).toBe('a');
  });

  it('removes C0 and C1 controls other than \\n and \\r', () => {
    expect(stripForUtf8('a\u0000b\u0007c\td\u001be\u007ff\u0085g\u009fh\n\r')).toBe('abcdefgh\n\r');
  });

  it('removes non-characters in every plane', () => {
    expect(stripForUtf8('a\ufdd0b\ufdefc\ufffed\uffffe\u{1fffe}f\u{10ffff}g')).toBe('abcdefg');
  });

  it('keeps ordinary text, accents, CJK and astral characters untouched', () => {
    const text = 'Café Привет 你好 𝄞 👨‍👩‍👧 €{}\u00a0';
    expect(stripForUtf8(text)).toBe(text);
  });

  it('always leaves text that encodes to UTF-8 and back unchanged, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 200 }), (text) => {
        const stripped = stripForUtf8(text);
        expect(new TextDecoder().decode(new TextEncoder().encode(stripped))).toBe(stripped);
        expect([...stripped].filter(isForbidden)).toEqual([]);
        expect(stripForUtf8(stripped)).toBe(stripped);
      }),
      { numRuns: 400 },
    );
  });
});
