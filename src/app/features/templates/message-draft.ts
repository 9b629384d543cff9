import { characterCount, SHORT_CODE_LENGTH } from '../../../shared/contract';
import {
  gsmLookalikes,
  measure,
  nonGsmCharacters,
  parseShorthands,
  render,
  segmentsOf,
  stripForUtf8,
  type GsmLookalike,
  type SmsMeasurement,
} from '../../../shared/sms';
import type { Link, VanityDomain } from '../../api/gen/types.gen';

/** A part of the message as the preview shows it; `sent` is what the handset receives for it. */
export type MessagePiece =
  | { kind: 'text'; sent: string }
  | { kind: 'link'; name: string; sent: string }
  | { kind: 'field'; name: string; sent: string; fallback?: string }
  | { kind: 'missing-link'; name: string; sent: string };

/** A character that forces UTF16, with its position as a person counts (1-based code points). */
export interface FlaggedCharacter {
  character: string;
  position: number;
}

export interface MessageDraft {
  measurement: SmsMeasurement;
  /** The message cut into its segments, each as the pieces it shows. */
  segments: MessagePiece[][];
  /** Code points of the body, the unit of the 1,600-character limit. */
  characters: number;
  nonGsm: FlaggedCharacter[];
  lookalikes: GsmLookalike[];
  warnings: string[];
}

/** Short links by link name: the link's domain, '/', and a sample code (real codes are made per recipient). */
export function sampleShortLinks(
  links: readonly Pick<Link, 'uuid' | 'name' | 'vanity_domain_uuid'>[],
  domains: readonly Pick<VanityDomain, 'uuid' | 'url_base' | 'is_default'>[],
) {
  const fallback = domains.find((domain) => domain.is_default)?.url_base ?? `${window.location.origin}/l`;
  const urls: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const link of links) {
    const base = domains.find((domain) => domain.uuid === link.vanity_domain_uuid)?.url_base ?? fallback;
    urls[link.name] = `${base}/${link.uuid.replace(/-/g, '').slice(0, SHORT_CODE_LENGTH)}`;
  }
  return urls;
}

/** Exact name first, then ignoring case, as the service's renderer matches. */
function lookup(urls: Record<string, string>, name: string): string | undefined {
  if (Object.hasOwn(urls, name)) return urls[name];
  const lower = name.toLowerCase();
  const key = Object.keys(urls).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : urls[key];
}

function piecesOf(body: string, shortLinks: Record<string, string>): MessagePiece[] {
  return parseShorthands(body).map((token): MessagePiece => {
    if (token.kind === 'text') return { kind: 'text', sent: token.raw };
    // Without a contact, a field is sent as its fallback, or as the one space it renders as.
    if (token.kind === 'field')
      return { kind: 'field', name: token.name, sent: token.fallback ?? ' ', ...(token.fallback === undefined ? {} : { fallback: token.fallback }) };
    const url = lookup(shortLinks, token.name);
    return url === undefined ? { kind: 'missing-link', name: token.name, sent: ' ' } : { kind: 'link', name: token.name, sent: url };
  });
}

/** Cuts the pieces where the segments end; a link may run over a boundary, a field (one space) never does. */
function splitPieces(pieces: readonly MessagePiece[], parts: readonly string[]): MessagePiece[][] {
  const segments: MessagePiece[][] = parts.map(() => []);
  let segment = 0;
  let room = parts[0]?.length ?? 0;
  for (const piece of pieces) {
    let rest = piece.sent;
    while (rest.length > 0) {
      while (room === 0 && segment < parts.length - 1) room = parts[++segment]?.length ?? 0;
      const taken = rest.slice(0, Math.max(room, 0) || rest.length);
      segments[segment]?.push({ ...piece, sent: taken });
      rest = rest.slice(taken.length);
      room -= taken.length;
    }
  }
  return segments;
}

/**
 * Everything the editor shows about a body, computed in the browser per keystroke, counted as the
 * service counts it: `::NAME::` as its short link, an unknown link or a field as one space.
 */
export function draftMessage(rawBody: string, shortLinks: Record<string, string>, { forceUtf8 = false } = {}): MessageDraft {
  const body = forceUtf8 ? stripForUtf8(rawBody) : rawBody;
  const sent = render(body, { links: shortLinks, fields: {} });
  const pieces = piecesOf(body, shortLinks);
  const literal = parseShorthands(body).filter((token) => token.kind === 'text');
  const inLiteralText = (index: number) => literal.some((token) => index >= token.index && index < token.index + token.raw.length);

  const missing = [...new Set(pieces.flatMap((piece) => (piece.kind === 'missing-link' ? [piece.name] : [])))];
  return {
    measurement: measure(sent),
    segments: splitPieces(pieces, segmentsOf(sent)),
    characters: characterCount(body),
    nonGsm: nonGsmCharacters(body)
      .filter(({ index }) => inLiteralText(index))
      .map(({ index, character }) => ({ character, position: characterCount(body.slice(0, index)) + 1 })),
    lookalikes: gsmLookalikes(body),
    warnings: missing.map((name) => `::${name}:: names no link of this template; it will be sent as a blank space.`),
  };
}
