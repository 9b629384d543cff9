/**
 * Body shorthands (docs/interface.md §2.2): `{{field}}` is a contact's custom field, `::NAME::` a tracked link.
 *
 * A field name is letters, digits, `_ . -` and single or repeated inner spaces (CSV headers such
 * as "First Name" become field names); spaces or tabs just inside the braces are trimmed, so
 * `{{ first_name }}` is `first_name`. A link name is letters, digits, `_` and `-`, no spaces.
 * A field may carry a fallback after a `|` (`{{first_name|there}}`, Herald extension): it is sent
 * when the recipient's value is missing or empty. The fallback is any text on one line without
 * braces or another `|`, trimmed (it may be empty: `{{title|}}` sends nothing rather than a space).
 * Anything else (`{{}}`, `{{a{b}}`, `::two words::`) is left as literal text.
 */
const SHORTHAND = /\{\{[ \t]*([\p{L}\p{N}_.-]+(?: +[\p{L}\p{N}_.-]+)*)[ \t]*(?:\|([^{}|\r\n]*))?\}\}|::([\p{L}\p{N}_-]+)::/gu;

export type ShorthandToken =
  | { kind: 'text'; raw: string; index: number }
  | { kind: 'field'; name: string; raw: string; index: number; fallback?: string }
  | { kind: 'link'; name: string; raw: string; index: number };

export interface ShorthandValues {
  /** The contact's custom fields by name. */
  fields?: Record<string, string>;
  /** Link URLs by link name (the short link that will be sent). */
  links?: Record<string, string>;
}

/** The body cut into literal text and shorthands, in order; the tokens' `raw` joined give back the body. */
export function parseShorthands(body: string): ShorthandToken[] {
  const tokens: ShorthandToken[] = [];
  let textFrom = 0;
  for (const match of body.matchAll(SHORTHAND)) {
    const index = match.index;
    if (index > textFrom) tokens.push({ kind: 'text', raw: body.slice(textFrom, index), index: textFrom });
    const [raw, field, fallback, link] = match;
    if (field !== undefined) tokens.push({ kind: 'field', name: field, raw, index, ...(fallback === undefined ? {} : { fallback: fallback.trim() }) });
    else tokens.push({ kind: 'link', name: link ?? '', raw, index });
    textFrom = index + raw.length;
  }
  if (textFrom < body.length) tokens.push({ kind: 'text', raw: body.slice(textFrom), index: textFrom });
  return tokens;
}

/** Distinct field and link names, in order of first appearance (to warn about a link that does not exist). */
export function shorthandNames(body: string): { fields: string[]; links: string[] } {
  const fields = new Set<string>();
  const links = new Set<string>();
  for (const token of parseShorthands(body)) {
    if (token.kind === 'field') fields.add(token.name);
    else if (token.kind === 'link') links.add(token.name);
  }
  return { fields: [...fields], links: [...links] };
}

/**
 * The fields a body uses, each once (the first spelling; names match ignoring case, as rendering
 * does), and whether every use of it has a fallback: such a field can never leave a gap.
 */
export function fieldUses(body: string): Array<{ name: string; fallback: boolean }> {
  const uses = new Map<string, { name: string; fallback: boolean }>();
  for (const token of parseShorthands(body)) {
    if (token.kind !== 'field') continue;
    const key = token.name.toLowerCase();
    const use = uses.get(key);
    if (use) use.fallback &&= token.fallback !== undefined;
    else uses.set(key, { name: token.name, fallback: token.fallback !== undefined });
  }
  return [...uses.values()];
}

/**
 * The body as a recipient reads it. A shorthand with no match becomes one space (docs/interface.md §2.2);
 * a value that is present but empty renders as nothing; a field with a fallback renders the fallback
 * for both. Names match exactly first, then
 * ignoring case. Values are inserted verbatim and never parsed again, so a contact's field
 * cannot inject a link or another field.
 */
export function render(body: string, values: ShorthandValues = {}): string {
  return renderTokens(parseShorthands(body), values);
}

/** `render` for a body already parsed (the caller also needed its tokens). */
export function renderTokens(tokens: readonly ShorthandToken[], values: ShorthandValues = {}): string {
  const fields = values.fields ?? {};
  const links = values.links ?? {};
  let rendered = '';
  for (const token of tokens) {
    if (token.kind === 'text') rendered += token.raw;
    else if (token.kind === 'link') rendered += lookup(links, token.name) ?? ' ';
    else if (token.fallback === undefined) rendered += lookup(fields, token.name) ?? ' ';
    else rendered += lookup(fields, token.name) || token.fallback;
  }
  return rendered;
}

function lookup(values: Record<string, string>, name: string): string | undefined {
  // Object.hasOwn: a field called "constructor" must not resolve to Object.prototype's.
  if (Object.hasOwn(values, name)) return stringOrUndefined(values[name]);
  const lowerName = name.toLowerCase();
  for (const key of Object.keys(values)) {
    if (key.toLowerCase() === lowerName) return stringOrUndefined(values[key]);
  }
  return undefined;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
