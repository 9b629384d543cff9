import { parseShorthands, renderTokens } from './shorthands';
import { measure, type MeasureOptions, type SmsMeasurement } from './sms-segments';

export interface RenderedMeasureOptions extends MeasureOptions {
  /** Characters of the short link each `::NAME::` becomes (e.g. 23 for https://hrld.io/abc1234). */
  linkLength: number;
  /** Custom-field values when a contact is known; a field without a value counts as the one space it renders as. */
  fields?: Record<string, string>;
}

// Short links are ASCII letters, digits, ':' '/' '.', all in the GSM basic set, so any basic
// character of the same length counts the same.
const SHORT_LINK_CHARACTER = 'x';

/**
 * Counts a body "as it will be sent" (the encoding endpoint and the editor): every link
 * shorthand, whether or not the link exists yet, as a GSM short link of `linkLength`
 * characters; every field as its value when given, else as one space.
 */
export function measureRendered(body: string, options: RenderedMeasureOptions): SmsMeasurement {
  const shortLink = SHORT_LINK_CHARACTER.repeat(Math.max(0, Math.floor(options.linkLength)));
  const tokens = parseShorthands(body);
  // No prototype, so a link named `__proto__` is an ordinary key too.
  const links: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const token of tokens) if (token.kind === 'link') links[token.name] = shortLink;
  const rendered = renderTokens(tokens, { fields: options.fields ?? {}, links });
  return measure(rendered, { forceUtf16: options.forceUtf16 });
}
