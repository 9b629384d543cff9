import { describe, expect, it } from 'vitest';
import { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS } from './gsm-charset';
import { classify, measure, segmentsOf } from './sms-segments';

const EMOJI = '😀'; // U+1F600, one character outside the BMP: two UTF-16 code units

describe('the encoding a body is sent in', () => {
  it('is GSM_7BIT for plain text and for every character of the basic set', () => {
    expect(classify('Hello')).toBe('GSM_7BIT');
    expect(classify(GSM_BASIC_CHARACTERS)).toBe('GSM_7BIT');
    expect(GSM_BASIC_CHARACTERS).toHaveLength(127); // 128 positions minus the escape
  });

  it('is GSM_7BIT for an empty body', () => {
    expect(classify('')).toBe('GSM_7BIT');
  });

  it('is GSM_7BIT_EX as soon as one extension character is used', () => {
    for (const character of GSM_EXTENSION_CHARACTERS) expect(classify(`Price ${character}`)).toBe('GSM_7BIT_EX');
  });

  it('is UTF16 for anything outside GSM, even next to extension characters', () => {
    expect(classify('Merci beaucoup ç')).toBe('UTF16');
    expect(classify(`€5 off ${EMOJI}`)).toBe('UTF16');
    expect(classify('“quoted”')).toBe('UTF16');
    expect(classify('tab\there')).toBe('UTF16');
  });
});

describe('measuring a body', () => {
  it('"Hello" is 5 of 160 in one segment', () => {
    expect(measure('Hello')).toEqual({ encoding: 'GSM_7BIT', length: 5, segments: 1, per_segment: 160, remaining: 155 });
  });

  it("an empty body is one segment with all 160 free, as in Twilio's calculator", () => {
    expect(measure('')).toEqual({ encoding: 'GSM_7BIT', length: 0, segments: 1, per_segment: 160, remaining: 160 });
  });

  it('160 GSM characters fit in one segment; 161 take two of 153 (153 + 8)', () => {
    expect(measure('a'.repeat(160))).toEqual({ encoding: 'GSM_7BIT', length: 160, segments: 1, per_segment: 160, remaining: 0 });
    expect(measure('a'.repeat(161))).toEqual({ encoding: 'GSM_7BIT', length: 161, segments: 2, per_segment: 153, remaining: 145 });
    expect(segmentsOf('a'.repeat(161)).map((part) => part.length)).toEqual([153, 8]);
  });

  it('counts a € as two septets', () => {
    expect(measure('€5')).toEqual({ encoding: 'GSM_7BIT_EX', length: 3, segments: 1, per_segment: 160, remaining: 157 });
    expect(measure('€'.repeat(80)).segments).toBe(1);
    expect(measure('€'.repeat(80) + 'a').segments).toBe(2);
  });

  it('70 UCS-2 characters fit in one segment; 71 take two of 67', () => {
    expect(measure('ç'.repeat(70))).toEqual({ encoding: 'UTF16', length: 70, segments: 1, per_segment: 70, remaining: 0 });
    expect(measure('ç'.repeat(71))).toEqual({ encoding: 'UTF16', length: 71, segments: 2, per_segment: 67, remaining: 63 });
  });

  it('counts an emoji as two UTF-16 units', () => {
    expect(measure(`Hi ${EMOJI}`)).toEqual({ encoding: 'UTF16', length: 5, segments: 1, per_segment: 70, remaining: 65 });
  });

  it('counts extension characters as one unit each once the body is UTF16', () => {
    expect(measure(`€{}${EMOJI}`).length).toBe(5);
  });

  it('can force UTF16 for a plain GSM body', () => {
    expect(measure('Hello', { forceUtf16: true })).toEqual({ encoding: 'UTF16', length: 5, segments: 1, per_segment: 70, remaining: 65 });
    expect(measure('a'.repeat(71), { forceUtf16: true }).segments).toBe(2);
  });
});

describe('splitting a long body into the parts a handset receives', () => {
  it('returns the body itself when it fits in one segment', () => {
    expect(segmentsOf('Hello')).toEqual(['Hello']);
    expect(segmentsOf('')).toEqual(['']);
  });

  it('moves an extension character that would straddle the 153rd septet to the next segment', () => {
    const body = 'a'.repeat(152) + '€' + 'b'.repeat(10);
    expect(segmentsOf(body)).toEqual(['a'.repeat(152), '€' + 'b'.repeat(10)]);
    expect(measure(body)).toEqual({ encoding: 'GSM_7BIT_EX', length: 164, segments: 2, per_segment: 153, remaining: 141 });
  });

  it('moves an escape that would straddle a later boundary too, which can cost a segment', () => {
    // 305 septets would fit in 2 × 153, but the € at septets 153–154 cannot be split.
    const body = 'a'.repeat(152) + '€' + 'b'.repeat(151);
    expect(measure(body).length).toBe(305);
    expect(segmentsOf(body).map((part) => part.length)).toEqual([152, 152]);
    expect(measure(body + 'b')).toMatchObject({ segments: 3, remaining: 152 });
  });

  it('never splits the two halves of an emoji', () => {
    const body = 'ç'.repeat(66) + EMOJI + 'ç'.repeat(10);
    expect(segmentsOf(body)).toEqual(['ç'.repeat(66), EMOJI + 'ç'.repeat(10)]);
    expect(measure(body)).toEqual({ encoding: 'UTF16', length: 78, segments: 2, per_segment: 67, remaining: 55 });
  });

  it('splits a 1,600-character body into 11 parts of at most 153', () => {
    const parts = segmentsOf('x'.repeat(1600));
    expect(parts).toHaveLength(11);
    expect(parts.join('')).toBe('x'.repeat(1600));
    expect(measure('x'.repeat(1600))).toMatchObject({ segments: 11, remaining: 153 * 11 - 1600 });
  });
});
