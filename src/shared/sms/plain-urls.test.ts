import { describe, expect, it } from 'vitest';
import { plainUrls, replacePlainUrl, suggestLinkName } from './plain-urls';

const texts = (body: string) => plainUrls(body).map((url) => url.text);

describe('plain web addresses in a body', () => {
  it('finds http, https and www addresses where they stand', () => {
    const body = 'Sale! https://shop.example.com/sale?ref=sms and www.example.org, or http://x.test';
    expect(plainUrls(body)).toEqual([
      { text: 'https://shop.example.com/sale?ref=sms', destination: 'https://shop.example.com/sale?ref=sms', index: 6 },
      { text: 'www.example.org', destination: 'https://www.example.org', index: 48 },
      { text: 'http://x.test', destination: 'http://x.test', index: 68 },
    ]);
  });

  it('leaves the punctuation that ends a sentence outside, but keeps parentheses the address opened', () => {
    expect(texts('See https://x.test/sale. Or (https://y.test/a)! And https://en.example.org/wiki/Foo_(bar).')).toEqual([
      'https://x.test/sale',
      'https://y.test/a',
      'https://en.example.org/wiki/Foo_(bar)',
    ]);
  });

  it('ignores shorthands, fallbacks and things that only start like an address', () => {
    expect(texts('Hi {{name|https://x.test}}, tap ::SALE:: now')).toEqual([]);
    expect(texts('www. is not one, nor https:// alone, nor nowww.x.test')).toEqual([]);
    expect(texts('Time 10:30, mail me@example.com')).toEqual([]);
  });

  it('finds addresses after a shorthand at their place in the whole body', () => {
    const body = '{{first_name|there}}: https://x.test';
    const [url] = plainUrls(body);
    expect(body.slice(url!.index, url!.index + url!.text.length)).toBe('https://x.test');
  });
});

describe('a link name for an address', () => {
  it('takes the last word of the path, else the host, in capitals', () => {
    expect(suggestLinkName('https://shop.example.com/spring-sale', [])).toBe('SPRING-SALE');
    expect(suggestLinkName('https://shop.example.com/p/offer.html?x=1', [])).toBe('OFFER');
    expect(suggestLinkName('https://www.example.com/', [])).toBe('EXAMPLE');
    expect(suggestLinkName('https://example.com/a b/ü', [])).toBe('A_B');
  });

  it('never repeats a name the template already has', () => {
    expect(suggestLinkName('https://x.test/sale', ['sale', 'SALE2'])).toBe('SALE3');
  });

  it('falls back to LINK for what is not an address', () => {
    expect(suggestLinkName('not a url', [])).toBe('LINK');
  });
});

describe('turning an address into a tracked link', () => {
  it('replaces each plain occurrence and nothing inside a shorthand or a longer address', () => {
    const body = 'Go https://x.test/sale, {{alt|https://x.test/sale}} https://x.test/sale/more and https://x.test/sale.';
    expect(replacePlainUrl(body, 'https://x.test/sale', '::SALE::')).toBe('Go ::SALE::, {{alt|https://x.test/sale}} https://x.test/sale/more and ::SALE::.');
  });
});
