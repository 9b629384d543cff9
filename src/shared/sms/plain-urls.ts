/**
 * Web addresses typed straight into a body. They are sent as typed, cost their full length and
 * count no clicks; the template editor offers to turn each into a tracked link (`::NAME::`).
 */
import { parseShorthands } from './shorthands';

export interface PlainUrl {
  /** The address as it stands in the body. */
  text: string;
  /** What a tracked link would lead to: the address, with `https://` put before a bare `www.`. */
  destination: string;
  /** Where it starts in the body. */
  index: number;
}

// An address runs to the next space or character that cannot be in one; punctuation that ends a
// sentence is not part of it ("see https://x.test/sale." ends at "sale").
const ADDRESS = /\b(?:https?:\/\/|www\.)[^\s<>"'{}|\\^`]+/giu;
const TRAILING = /[.,;:!?)\]]+$/u;

/** The plain web addresses of a body, in order; those inside a shorthand (a field's fallback) are left out. */
export function plainUrls(body: string): PlainUrl[] {
  const found: PlainUrl[] = [];
  for (const token of parseShorthands(body)) {
    if (token.kind !== 'text') continue;
    for (const match of token.raw.matchAll(ADDRESS)) {
      const text = balanceParentheses(match[0].replace(TRAILING, ''), match[0]);
      // "www." alone, or "https://" with nothing after it, is not an address.
      if (!/^(?:https?:\/\/|www\.)[^./]/iu.test(text)) continue;
      found.push({ text, destination: /^www\./iu.test(text) ? `https://${text}` : text, index: token.index + match.index });
    }
  }
  return found;
}

/** Keeps a closing parenthesis the address opened itself (Wikipedia's "Foo_(bar)"). */
function balanceParentheses(trimmed: string, whole: string): string {
  let text = trimmed;
  while (text.length < whole.length && whole[text.length] === ')' && count(text, '(') > count(text, ')')) text += ')';
  return text;
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const count = (text: string, character: string) => text.split(character).length - 1;

/**
 * A link name suggested for an address: the last word of its path, else the first label of its
 * host that is not `www`, in capitals, made unique against the names taken ("SALE", "SALE2").
 */
export function suggestLinkName(destination: string, taken: readonly string[]): string {
  let base = 'LINK';
  try {
    const url = new URL(destination);
    const words = url.pathname
      .split('/')
      .map(decodePart)
      .filter((part) => /[A-Za-z0-9]/.test(part));
    const host = url.hostname.split('.').find((label) => label !== 'www' && label !== '') ?? '';
    const source = words.at(-1) ?? host;
    const cleaned = source
      .replace(/\.[a-z0-9]{1,5}$/iu, '')
      .replace(/[^A-Za-z0-9_-]+/gu, '_')
      .replace(/^[_-]+|[_-]+$/gu, '')
      .slice(0, 40)
      .toUpperCase();
    if (cleaned) base = cleaned;
  } catch {
    // Not an address the browser can read: the plain default.
  }
  const used = new Set(taken.map((name) => name.toUpperCase()));
  if (!used.has(base)) return base;
  for (let suffix = 2; ; suffix++) if (!used.has(`${base}${suffix}`)) return `${base}${suffix}`;
}

/** The body with every plain occurrence of the address (not one inside a shorthand) replaced by the text given. */
export function replacePlainUrl(body: string, address: string, replacement: string): string {
  let result = body;
  for (const url of plainUrls(body).reverse()) {
    if (url.text === address) result = result.slice(0, url.index) + replacement + result.slice(url.index + url.text.length);
  }
  return result;
}
