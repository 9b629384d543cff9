import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldUses, parseShorthands, render, shorthandNames } from './shorthands';

describe('reading the shorthands of a body', () => {
  it('cuts the body into text, custom fields and links, in order', () => {
    expect(parseShorthands('Hi {{first_name}}, see ::Promo::!')).toEqual([
      { kind: 'text', raw: 'Hi ', index: 0 },
      { kind: 'field', name: 'first_name', raw: '{{first_name}}', index: 3 },
      { kind: 'text', raw: ', see ', index: 17 },
      { kind: 'link', name: 'Promo', raw: '::Promo::', index: 23 },
      { kind: 'text', raw: '!', index: 32 },
    ]);
  });

  it('trims spaces inside the braces and accepts CSV-header names with spaces, dots and dashes', () => {
    const names = (body: string) => parseShorthands(body).flatMap((token) => (token.kind === 'field' ? [token.name] : []));
    expect(names('{{ first_name }} {{First Name}} {{ref.no}} {{post-code}} {{prénom}}')).toEqual(['first_name', 'First Name', 'ref.no', 'post-code', 'prénom']);
  });

  it('leaves text that only looks like a shorthand alone', () => {
    for (const body of ['{{}}', '{{ }}', '{{a{b}}', '{first}', '::two words::', '::::', 'Time 10:30 :: ok', '{{a\nb}}']) {
      expect(parseShorthands(body)).toEqual([{ kind: 'text', raw: body, index: 0 }]);
    }
  });

  it('lists distinct field and link names in order of first appearance', () => {
    expect(shorthandNames('::B:: {{x}} ::A:: {{y}} ::B:: {{x}}')).toEqual({ fields: ['x', 'y'], links: ['B', 'A'] });
    expect(shorthandNames('no shorthands')).toEqual({ fields: [], links: [] });
  });
});

describe('rendering a body for a contact', () => {
  const contact = { fields: { first_name: 'Ada', City: 'Leeds' }, links: { Promo: 'https://hrld.io/abc1234' } };

  it('replaces custom fields and link shorthands by their values', () => {
    expect(render('Hi {{first_name}} from {{City}}: ::Promo::', contact)).toBe('Hi Ada from Leeds: https://hrld.io/abc1234');
  });

  it('puts one space where a shorthand has no match', () => {
    expect(render('Hi {{nickname}}! ::Missing::.', contact)).toBe('Hi  !  .');
    expect(render('{{first_name}}', {})).toBe(' ');
  });

  it('matches names exactly first, then ignoring case', () => {
    expect(render('{{FIRST_NAME}} {{city}} ::promo::', contact)).toBe('Ada Leeds https://hrld.io/abc1234');
    expect(render('{{name}} {{Name}}', { fields: { Name: 'exact', name: 'lower' } })).toBe('lower exact');
  });

  it('renders a field that is present but empty as nothing', () => {
    expect(render('Hi {{first_name}}!', { fields: { first_name: '' } })).toBe('Hi !');
  });

  it('does not resolve names from Object.prototype', () => {
    expect(render('{{constructor}} ::toString::', {})).toBe('   ');
  });

  it('inserts values verbatim, without expanding shorthands inside them', () => {
    expect(render('{{note}}', { fields: { note: '::Promo:: {{first_name}}' }, links: contact.links })).toBe('::Promo:: {{first_name}}');
  });
});

describe('shorthand properties', () => {
  const name = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
  const plain = fc.string({ maxLength: 20 }).map((text) => text.replace(/[{}:]/g, ''));
  const piece = fc.oneof(
    plain,
    name.map((field) => `{{${field}}}`),
    name.map((link) => `::${link}::`),
  );
  const body = fc.array(piece, { maxLength: 15 }).map((pieces) => pieces.join(''));
  const anyBody = fc.oneof(
    body,
    fc.string({ maxLength: 200 }),
    fc.array(fc.constantFrom('{', '}', ':', 'a', ' '), { maxLength: 60 }).map((c) => c.join('')),
  );

  it('parsing loses nothing: the tokens give back the body, each at its index', () => {
    fc.assert(
      fc.property(anyBody, (text) => {
        const tokens = parseShorthands(text);
        expect(tokens.map((token) => token.raw).join('')).toBe(text);
        for (const token of tokens) expect(text.slice(token.index, token.index + token.raw.length)).toBe(token.raw);
      }),
      { numRuns: 400 },
    );
  });

  it('leaves no shorthand behind, whether it matched a value or became a space', () => {
    fc.assert(
      fc.property(body, fc.dictionary(name, plain), fc.dictionary(name, plain), (text, fields, links) => {
        const rendered = render(text, { fields, links });
        expect(parseShorthands(rendered).every((token) => token.kind === 'text')).toBe(true);
        expect(rendered).not.toMatch(/\{\{|::/);
      }),
      { numRuns: 400 },
    );
  });

  it('renders a body without shorthands unchanged', () => {
    fc.assert(
      fc.property(plain, (text) => {
        expect(render(text, { fields: { a: 'x' } })).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('fallbacks', () => {
  it('reads a fallback after a bar, trimmed; a bar with nothing after it is an empty fallback', () => {
    expect(parseShorthands('{{ first_name | there }}')).toEqual([
      { kind: 'field', name: 'first_name', raw: '{{ first_name | there }}', index: 0, fallback: 'there' },
    ]);
    expect(parseShorthands('{{title|}}')).toEqual([{ kind: 'field', name: 'title', raw: '{{title|}}', index: 0, fallback: '' }]);
    // No second bar, brace or line break in a fallback: such text stays literal.
    for (const body of ['{{a|b|c}}', '{{a|b}c}}', '{{a|b\nc}}', '{{|b}}']) expect(parseShorthands(body)).toEqual([{ kind: 'text', raw: body, index: 0 }]);
  });

  it('sends the fallback when the value is missing or empty, and the value otherwise', () => {
    const body = 'Hi {{first_name|there}}, {{title|}}!';
    expect(render(body, { fields: { first_name: 'Ada', title: 'Dr' } })).toBe('Hi Ada, Dr!');
    expect(render(body, { fields: { First_Name: 'Ada' } })).toBe('Hi Ada, !');
    expect(render(body, { fields: { first_name: '' } })).toBe('Hi there, !');
    expect(render(body, {})).toBe('Hi there, !');
    // A fallback is literal: it does not become a link.
    expect(render('{{x|see ::Promo::}}', { links: { Promo: 'https://hrld.io/a' } })).toBe('see ::Promo::');
  });

  it('lists each field once, with a fallback only when every use has one', () => {
    expect(fieldUses('{{First_Name|you}} {{first_name}} {{city|here}} {{City|there}} {{zip}}')).toEqual([
      { name: 'First_Name', fallback: false },
      { name: 'city', fallback: true },
      { name: 'zip', fallback: false },
    ]);
  });
});
