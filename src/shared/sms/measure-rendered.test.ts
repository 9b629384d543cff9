import { describe, expect, it } from 'vitest';
import { measureRendered } from './measure-rendered';
import { measure } from './sms-segments';

describe('counting a body as it will be sent', () => {
  it('counts each link shorthand as a short link of the given length', () => {
    // https://hrld.io/abc1234 is 23 characters; "Sale: " is 6.
    expect(measureRendered('Sale: ::Promo::', { linkLength: 23 })).toEqual(measure('Sale: https://hrld.io/abc1234'));
    expect(measureRendered('::A:: ::A:: ::B::', { linkLength: 23 }).length).toBe(23 * 3 + 2);
    expect(measureRendered('::__proto__::', { linkLength: 23 }).length).toBe(23);
  });

  it('counts a custom field as its value when known, else as one space', () => {
    expect(measureRendered('Hi {{first_name}}', { linkLength: 23 }).length).toBe(4);
    expect(measureRendered('Hi {{first_name}}', { linkLength: 23, fields: { first_name: 'Ada' } }).length).toBe(6);
  });

  it('takes its encoding from the values too', () => {
    expect(measureRendered('Hi {{first_name}}', { linkLength: 23, fields: { first_name: 'Zoë' } }).encoding).toBe('UTF16');
    expect(measureRendered('{{price}}', { linkLength: 23, fields: { price: '€5' } }).encoding).toBe('GSM_7BIT_EX');
  });

  it('can tip a body into a second segment that the raw text would not need', () => {
    const body = 'a'.repeat(140) + ' ::Promo::';
    expect(measure(body).segments).toBe(1);
    expect(measureRendered(body, { linkLength: 23 })).toMatchObject({ length: 164, segments: 2 });
  });

  it('honours forceUtf16', () => {
    expect(measureRendered('::Promo::', { linkLength: 23, forceUtf16: true })).toMatchObject({ encoding: 'UTF16', length: 23, per_segment: 70 });
  });
});
