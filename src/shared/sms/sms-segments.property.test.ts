import fc from 'fast-check';
import { SegmentedMessage } from 'sms-segments-calculator';
import { describe, expect, it } from 'vitest';
import { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS, isHighSurrogate, isLowSurrogate } from './gsm-charset';
import { measure, segmentsOf, type MeasureOptions } from './sms-segments';

const basic = fc.constantFrom(...GSM_BASIC_CHARACTERS);
const extension = fc.constantFrom(...GSM_EXTENSION_CHARACTERS);
const emoji = fc.constantFrom('😀', '👍🏽', '🇬🇧', '👨‍👩‍👧', '❤️', '𝄞');
const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
// Any UTF-16 code unit, so lone surrogates and broken pairs occur too.
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((codeUnit) => String.fromCharCode(codeUnit));
const combiningMark = fc.integer({ min: 0x300, max: 0x36f }).map((codeUnit) => String.fromCharCode(codeUnit));

// Lengths drawn uniformly: fast-check's default bias towards short arrays would rarely reach a boundary.
const textOf = (character: fc.Arbitrary<string>, minLength: number, maxLength: number) =>
  fc
    .integer({ min: minLength, max: maxLength })
    .chain((length) => fc.array(character, { minLength: length, maxLength: length }))
    .map((characters) => characters.join(''));

const gsmText = fc.oneof(
  textOf(basic, 0, 400),
  textOf(fc.oneof({ arbitrary: basic, weight: 5 }, { arbitrary: extension, weight: 1 }), 0, 400),
  // Around the 160/153 boundaries, where the escape rule matters.
  textOf(fc.oneof({ arbitrary: basic, weight: 3 }, { arbitrary: extension, weight: 1 }), 140, 330),
  textOf(fc.oneof(basic, extension), 0, 2000),
);
const unicodeText = fc.oneof(
  textOf(fc.oneof({ arbitrary: basic, weight: 6 }, extension, emoji, anyCodePoint, anyCodeUnit, combiningMark), 0, 400),
  textOf(fc.oneof({ arbitrary: basic, weight: 4 }, extension, emoji, anyCodePoint), 40, 400),
  // Around the 70/67 boundaries, where the surrogate-pair rule matters.
  textOf(fc.oneof(basic, emoji, anyCodePoint), 60, 150),
  textOf(fc.oneof(basic, extension, emoji, anyCodePoint, anyCodeUnit), 0, 2000),
  fc.string({ unit: 'grapheme', minLength: 30, maxLength: 300 }),
);
const anyText = fc.oneof(gsmText, unicodeText);

const referenceFamily = (text: string, options: MeasureOptions) => (options.forceUtf16 ? new SegmentedMessage(text, 'UCS-2') : new SegmentedMessage(text));

/** UTF-16 offsets where the reference's graphemes begin and end. */
function graphemeBoundaries(graphemes: string[]): Set<number> {
  const boundaries = new Set([0]);
  let offset = 0;
  for (const grapheme of graphemes) boundaries.add((offset += grapheme.length));
  return boundaries;
}

function cutOffsets(parts: string[]): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const part of parts.slice(0, -1)) offsets.push((offset += part.length));
  return offsets;
}

describe("agreement with Twilio's segment calculator (sms-segments-calculator)", () => {
  it('gives the same encoding family, septet count and segments for GSM bodies', () => {
    fc.assert(
      fc.property(gsmText, (text) => {
        const ours = measure(text);
        const reference = new SegmentedMessage(text);
        expect(reference.encodingName).toBe('GSM-7');
        expect(ours.encoding).not.toBe('UTF16');
        expect(ours.length).toBe(reference.numberOfCharacters);
        expect(ours.segments).toBe(reference.segmentsCount);
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same encoding family and segments for any body, auto or forced UCS-2', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, forceUtf16) => {
        const options = { forceUtf16 };
        const ours = measure(text, options);
        const reference = referenceFamily(text, options);
        expect(ours.encoding === 'UTF16' ? 'UCS-2' : 'GSM-7').toBe(reference.encodingName);
        // Deliberate difference: the reference never splits a grapheme cluster (👨‍👩‍👧, a letter
        // + combining accent) across parts; we split between code points, as gateways do, and only
        // keep surrogate pairs whole. So the counts must agree exactly whenever none of our cuts
        // falls inside one of its graphemes; otherwise keeping clusters whole can only cost parts.
        const boundaries = graphemeBoundaries(reference.graphemes);
        const cuts = cutOffsets(segmentsOf(text, options));
        if (cuts.every((offset) => boundaries.has(offset))) {
          expect(ours.segments).toBe(reference.segmentsCount);
        } else {
          const splitsACodePoint = cuts.some((offset) => isHighSurrogate(text.charCodeAt(offset - 1)) && isLowSurrogate(text.charCodeAt(offset)));
          expect(splitsACodePoint).toBe(false);
          expect(reference.segmentsCount).toBeGreaterThanOrEqual(ours.segments);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('the parts of a body', () => {
  it('join back into the body, and there are as many as measure counts', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, forceUtf16) => {
        const parts = segmentsOf(text, { forceUtf16 });
        expect(parts.join('')).toBe(text);
        expect(parts).toHaveLength(measure(text, { forceUtf16 }).segments);
      }),
      { numRuns: 400 },
    );
  });

  it('each fit the per-segment limit, are filled as far as the next character allows, and leave `remaining` free in the last', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, forceUtf16) => {
        const whole = measure(text, { forceUtf16 });
        const sizeOf = (part: string) => measure(part, { forceUtf16: whole.encoding === 'UTF16' }).length;
        const parts = segmentsOf(text, { forceUtf16 });
        parts.forEach((part, index) => {
          expect(sizeOf(part)).toBeLessThanOrEqual(whole.per_segment);
          const next = parts[index + 1];
          if (next === undefined) return;
          expect(part).not.toBe('');
          // Greedy: the next part's first character (an escape pair or a surrogate pair counts whole) did not fit.
          const firstOfNext = isHighSurrogate(next.charCodeAt(0)) && isLowSurrogate(next.charCodeAt(1)) ? next.slice(0, 2) : next.slice(0, 1);
          expect(sizeOf(part + firstOfNext)).toBeGreaterThan(whole.per_segment);
        });
        expect(whole.remaining).toBe(whole.per_segment - sizeOf(parts.at(-1) ?? ''));
        expect(parts.reduce((total, part) => total + sizeOf(part), 0)).toBe(whole.length);
      }),
      { numRuns: 400 },
    );
  });

  it('never separate the halves of a surrogate pair', () => {
    fc.assert(
      fc.property(unicodeText, (text) => {
        const parts = segmentsOf(text);
        for (let index = 1; index < parts.length; index++) {
          const previous = parts[index - 1] ?? '';
          const split = isHighSurrogate(previous.charCodeAt(previous.length - 1)) && isLowSurrogate(parts[index]?.charCodeAt(0) ?? 0);
          expect(split).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
