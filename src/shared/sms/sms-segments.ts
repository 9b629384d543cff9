import { GSM_SEPTETS } from './gsm-charset';

/** The encoding a body is sent in (the values `POST /templates/encoding` returns). */
export type SmsEncoding = 'GSM_7BIT' | 'GSM_7BIT_EX' | 'UTF16';

export interface SmsMeasurement {
  encoding: SmsEncoding;
  /** Septets for GSM (an extension character counts 2); UTF-16 code units for UTF16 (an emoji counts 2). */
  length: number;
  /** Parts the message is sent in. An empty body is 1, as in Twilio's calculator: it is still one SMS. */
  segments: number;
  /** Capacity of each part: 160/70 when the message fits in one, else 153/67 (the rest holds the concatenation header). */
  per_segment: number;
  /** Septets or code units still free in the last part. */
  remaining: number;
}

export interface MeasureOptions {
  /** Count the body as UTF16 even when it is plain GSM (a gateway option that forces Unicode). */
  forceUtf16?: boolean;
}

const SINGLE = { gsm: 160, utf16: 70 } as const;
const MULTIPART = { gsm: 153, utf16: 67 } as const;

/** GSM_7BIT when the basic set suffices, GSM_7BIT_EX when the extension table is needed, else UTF16. */
export function classify(text: string): SmsEncoding {
  return scan(text).encoding;
}

/** One pass for the encoding and, when it is GSM, the septet count (the editor calls this per keystroke). */
function scan(text: string): { encoding: SmsEncoding; septets: number } {
  const septetsOf = GSM_SEPTETS;
  let septets = 0;
  let extended = false;
  for (let index = 0; index < text.length; index++) {
    const cost = septetsOf[text.charCodeAt(index)] ?? 0;
    if (cost === 0) return { encoding: 'UTF16', septets: 0 };
    if (cost === 2) extended = true;
    septets += cost;
  }
  return { encoding: extended ? 'GSM_7BIT_EX' : 'GSM_7BIT', septets };
}

export function measure(text: string, options: MeasureOptions = {}): SmsMeasurement {
  const scanned = options.forceUtf16 ? { encoding: 'UTF16' as const, septets: 0 } : scan(text);
  const { encoding } = scanned;
  const gsm = encoding !== 'UTF16';
  const length = gsm ? scanned.septets : text.length;
  const single = gsm ? SINGLE.gsm : SINGLE.utf16;
  if (length <= single) return { encoding, length, segments: 1, per_segment: single, remaining: single - length };

  const capacity = gsm ? MULTIPART.gsm : MULTIPART.utf16;
  // Without extension characters every septet is its own unit, so no boundary needs a walk.
  const { segments, lastUsed } = encoding === 'GSM_7BIT' ? packUniform(length, capacity) : pack(text, gsm, null);
  return { encoding, length, segments, per_segment: capacity, remaining: capacity - lastUsed };
}

/** The parts as the handset receives them, in order; joined they give back the text. */
export function segmentsOf(text: string, options: MeasureOptions = {}): string[] {
  const scanned = options.forceUtf16 ? null : scan(text);
  const gsm = scanned !== null && scanned.encoding !== 'UTF16';
  const length = gsm ? scanned.septets : text.length;
  if (length <= (gsm ? SINGLE.gsm : SINGLE.utf16)) return [text];

  const cuts: number[] = [];
  pack(text, gsm, cuts);
  const parts: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    parts.push(text.slice(start, cut));
    start = cut;
  }
  parts.push(text.slice(start));
  return parts;
}

function packUniform(length: number, capacity: number): { segments: number; lastUsed: number } {
  const segments = Math.ceil(length / capacity);
  return { segments, lastUsed: length - (segments - 1) * capacity };
}

/**
 * Fills multipart segments greedily. A character is never split across two parts: an extension
 * character's escape and septet travel together (so a part may hold 152), and so do the two
 * halves of a surrogate pair (a part may hold 66), or the handset would show garbage.
 */
function pack(text: string, gsm: boolean, cuts: number[] | null): { segments: number; lastUsed: number } {
  const capacity = gsm ? MULTIPART.gsm : MULTIPART.utf16;
  const septetsOf = GSM_SEPTETS;
  let segments = 1;
  let used = 0;
  let index = 0;
  while (index < text.length) {
    const codeUnit = text.charCodeAt(index);
    const size = gsm
      ? (septetsOf[codeUnit] ?? 0)
      : (codeUnit & 0xfc00) === 0xd800 && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00 // a surrogate pair
        ? 2
        : 1;
    if (used + size > capacity) {
      segments++;
      used = 0;
      cuts?.push(index);
    }
    used += size;
    index += gsm ? 1 : size;
  }
  return { segments, lastUsed: used };
}
