import { Metadata, parsePhoneNumberFromString, type CountryCode, validatePhoneNumberLength } from 'libphonenumber-js';

export type NormalizedPhoneNumber = { ok: true; number: string } | { ok: false; reason: string };

const REASONS: Record<string, string> = {
  INVALID_COUNTRY: 'has no country code and is not a national number of the default country',
  NOT_A_NUMBER: 'is not a phone number',
  TOO_SHORT: 'is too short',
  TOO_LONG: 'is too long',
  INVALID_LENGTH: 'has an invalid length',
};

/** The shortest national number accepted on its length alone (see normalizePhoneNumber). */
const SUBSCRIBER_LENGTH = 9;
/** libphonenumber's longest national number. */
const MAX_NATIONAL_LENGTH = 17;

/**
 * E.164 digits without `+` (`447700900123`), the form every number is stored and matched in.
 * National numbers are read in `defaultCountry` (UK `07…` -> `447…`); `00` and `+` prefixes are international.
 * A leading `'` (a spreadsheet's mark of a number kept as text) is not part of the number.
 * A number is accepted when it is valid for its country, or when it is well-formed and as long as
 * a subscriber number (9+ digits): allocation changes faster than any table (and 07700 900xxx,
 * reserved for examples, must work), so the carrier has the last word on those.
 *
 * Most numbers (digits and spaces, a length every country of their calling code allows) are
 * accepted by a fast path that reads the same metadata the way libphonenumber does (see
 * `acceptedQuickly`); everything else, and every refusal with its reason, goes through
 * libphonenumber itself. `phone-numbers.test.ts` checks that both give the same answer.
 */
export function normalizePhoneNumber(input: string, defaultCountry: string): NormalizedPhoneNumber {
  // A leading apostrophe is how Excel (and Shopify's exports) keep a number as text: '+447700900401.
  const text = input
    .trim()
    .replace(/^'\s*/, '')
    .replace(/^00(?=[1-9])/, '+');
  if (text === '') return { ok: false, reason: 'is empty' };
  if (/[^\d\s()+.\-/]/.test(text)) return { ok: false, reason: REASONS.NOT_A_NUMBER! };
  // A bare number long enough to carry a country code (447…) is read as international.
  const digits = text.replace(/\D/g, '');
  const international = text.startsWith('+') || (!digits.startsWith('0') && digits.length > 10);
  const quick = PLAIN_NUMBER.test(text) ? acceptedQuickly(digits, international, defaultCountry) : undefined;
  if (quick !== undefined) return { ok: true, number: quick };
  return normalizeWithLibphonenumber(international && !text.startsWith('+') ? `+${digits}` : text, defaultCountry);
}

/**
 * libphonenumber's reading of `text` (already trimmed, `00` read as `+`): parsed once, the cheap
 * length checks first. Exported for the test that holds the fast path to it.
 */
export function normalizeWithLibphonenumber(text: string, defaultCountry: string): NormalizedPhoneNumber {
  const country = defaultCountry as CountryCode;
  const parsed = parsePhoneNumberFromString(text, country);
  if (parsed && ((parsed.isPossible() && parsed.nationalNumber.length >= SUBSCRIBER_LENGTH) || parsed.isValid()))
    return { ok: true, number: parsed.number.slice(1) };
  const lengthProblem = validatePhoneNumberLength(text, country);
  if (lengthProblem) return { ok: false, reason: REASONS[lengthProblem] ?? REASONS.NOT_A_NUMBER! };
  if (!parsed) return { ok: false, reason: REASONS.NOT_A_NUMBER! };
  return { ok: false, reason: `is not a valid number for ${parsed.country ?? `+${parsed.countryCallingCode}`}` };
}

/** Digits and spaces, with at most a leading `+`: what the fast path reads (other punctuation goes the slow way). */
const PLAIN_NUMBER = /^\+?\d[\d ]*$/;

// The parts of libphonenumber's metadata API the fast path reads (its typings declare fewer).
type Plan = {
  callingCode(): string;
  possibleLengths(): number[] | undefined;
  nationalPrefixForParsing(): string | undefined;
  nationalNumberPattern(): string;
  IDDPrefix(): string;
};
type MetadataApi = {
  numberingPlan: Plan;
  selectNumberingPlan(countryOrCallingCode: string): void;
  hasCallingCode(callingCode: string): boolean;
  hasCountry(country: string): boolean;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
};

/** What the fast path needs of a calling code: the lengths all its countries allow, and its main plan's national prefix. */
type CallingCodePlan = { lengths: Set<number>; nationalPrefix: RegExp | null };
/** And of a default country: its calling code, IDD prefix, national prefix and national number pattern. */
type CountryPlan = { callingCode: string; idd: RegExp; nationalPrefix: RegExp | null; nationalNumber: RegExp; codePlan: CallingCodePlan };

const metadata = new (Metadata as unknown as new () => MetadataApi)();
const callingCodePlans = new Map<string, CallingCodePlan | null>();
const countryPlans = new Map<string, CountryPlan | null>();

const prefixPattern = (pattern: string | undefined) => (pattern ? new RegExp(`^(?:${pattern})`) : null);

function callingCodePlan(callingCode: string): CallingCodePlan | null {
  let plan = callingCodePlans.get(callingCode);
  if (plan !== undefined) return plan;
  plan = null;
  // Non-geographic codes (+800, +882…) have no countries: the slow path reads them.
  const countries = metadata.getCountryCodesForCallingCode(callingCode);
  if (countries) {
    let lengths: Set<number> | null = null;
    for (const country of countries) {
      metadata.selectNumberingPlan(country);
      const own = metadata.numberingPlan.possibleLengths();
      if (!own) {
        lengths = new Set();
        break;
      }
      lengths = new Set(lengths ? own.filter((length) => lengths!.has(length)) : own);
    }
    metadata.selectNumberingPlan(callingCode);
    plan = { lengths: lengths ?? new Set(), nationalPrefix: prefixPattern(metadata.numberingPlan.nationalPrefixForParsing()) };
  }
  callingCodePlans.set(callingCode, plan);
  return plan;
}

function countryPlan(country: string): CountryPlan | null {
  let plan = countryPlans.get(country);
  if (plan !== undefined) return plan;
  plan = null;
  if (metadata.hasCountry(country)) {
    metadata.selectNumberingPlan(country);
    const { numberingPlan } = metadata;
    const callingCode = numberingPlan.callingCode();
    const base = {
      callingCode,
      idd: new RegExp(numberingPlan.IDDPrefix()),
      nationalPrefix: prefixPattern(numberingPlan.nationalPrefixForParsing()),
      nationalNumber: new RegExp(`^(?:${numberingPlan.nationalNumberPattern()})$`),
    };
    const codePlan = callingCodePlan(callingCode);
    plan = codePlan ? { ...base, codePlan } : null;
  }
  countryPlans.set(country, plan);
  return plan;
}

/** Accepted on its length alone: a subscriber number's length that every country of the calling code allows. */
const acceptedLength = (nationalNumber: string, plan: CallingCodePlan) =>
  nationalNumber.length >= SUBSCRIBER_LENGTH && nationalNumber.length <= MAX_NATIONAL_LENGTH && plan.lengths.has(nationalNumber.length);

/**
 * The number libphonenumber would accept, found without it, or undefined when this cannot be
 * sure (the slow path then decides). It follows libphonenumber-js's `parse` step by step for
 * digits-only input, stepping aside wherever that code would do more than the steps below:
 * - international: the calling code is the first 1–3 digits the metadata knows; the rest is the
 *   national number unless the main country's national prefix could be stripped from it (then
 *   aside). Whichever country of the calling code libphonenumber then picks, the number is
 *   "possible" when its length is one every country of the code allows.
 * - national (default country): aside when the number starts with the country's IDD prefix or
 *   calling code (libphonenumber may read those as international); the national prefix is
 *   stripped as libphonenumber does when no capture group is involved — kept when the whole
 *   number matches the national pattern and the stripped one does not, and otherwise only when
 *   the stripped length is one every country of the code allows (other cases aside).
 */
export function acceptedQuickly(digits: string, international: boolean, defaultCountry: string): string | undefined {
  // libphonenumber refuses every number when the default country is unknown.
  const plan = countryPlan(defaultCountry);
  if (!plan) return undefined;
  if (international) {
    if (digits.startsWith('0')) return undefined;
    for (let length = 1; length <= 3 && length <= digits.length; length++) {
      const callingCode = digits.slice(0, length);
      if (!metadata.hasCallingCode(callingCode)) continue;
      const plan = callingCodePlan(callingCode);
      if (!plan) return undefined;
      const nationalNumber = digits.slice(length);
      if (plan.nationalPrefix?.test(nationalNumber)) return undefined;
      return acceptedLength(nationalNumber, plan) ? digits : undefined;
    }
    return undefined;
  }
  if (plan.idd.exec(digits)?.index === 0 || digits.startsWith(plan.callingCode)) return undefined;
  let nationalNumber = digits;
  const prefix = plan.nationalPrefix?.exec(digits);
  if (prefix) {
    if (prefix.length > 1) return undefined;
    const stripped = digits.slice(prefix[0].length);
    if (stripped !== digits && !(plan.nationalNumber.test(digits) && !plan.nationalNumber.test(stripped))) {
      if (!plan.codePlan.lengths.has(stripped.length)) return undefined;
      nationalNumber = stripped;
    }
  }
  return acceptedLength(nationalNumber, plan.codePlan) ? plan.callingCode + nationalNumber : undefined;
}

/**
 * What a search for a number looks for in stored numbers (E.164 digits without `+`), or undefined
 * when the text is not a number. A whole number, however a person writes it ("07700 900001",
 * "+44 7700 900001", "0044 7700 900001", "'+447700900001"), is read as an import would read it, in
 * the team's country (`country`, asked only then); a part of one loses its leading zeros (the
 * national or international prefix), so "07700 900" finds 447700900….
 */
export async function phoneSearch(text: string, country: () => Promise<string>): Promise<string | undefined> {
  const cleaned = text.trim().replace(/^'/, '');
  const digits = cleaned.replace(/[\s+\-()./]/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  const whole = normalizePhoneNumber(cleaned, await country());
  if (whole.ok) return whole.number;
  return digits.replace(/^0+(?=\d)/, '');
}
