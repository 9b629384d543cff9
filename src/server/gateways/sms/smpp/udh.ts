/** Concatenation of a long message, as the user data header carries it (3GPP TS 23.040 §9.2.3.24.1). */
export type Concatenation = { reference: number; total: number; sequence: number };

const IE_CONCAT_8BIT = 0x00;
const IE_CONCAT_16BIT = 0x08;

/** The 6-octet header Herald sends: UDHL 5, IE 0x00 (8-bit reference), length 3, reference, total, sequence (from 1). */
export function concatenationHeader({ reference, total, sequence }: Concatenation): Buffer {
  return Buffer.from([0x05, IE_CONCAT_8BIT, 0x03, reference & 0xff, total, sequence]);
}

/** Splits a short message sent with the UDH indicator into its concatenation (if any) and the text octets after the header. */
export function splitUserDataHeader(bytes: Buffer): { concatenation: Concatenation | null; text: Buffer } {
  const headerLength = bytes[0];
  if (headerLength === undefined || headerLength + 1 > bytes.length) return { concatenation: null, text: bytes };
  const text = bytes.subarray(headerLength + 1);
  let concatenation: Concatenation | null = null;
  for (let offset = 1; offset + 1 < headerLength + 1;) {
    const id = bytes[offset]!;
    const length = bytes[offset + 1]!;
    const data = bytes.subarray(offset + 2, Math.min(offset + 2 + length, headerLength + 1));
    if (data.length < length) break; // a malformed header: keep what was read so far
    if (id === IE_CONCAT_8BIT && length === 3) concatenation = { reference: data[0]!, total: data[1]!, sequence: data[2]! };
    if (id === IE_CONCAT_16BIT && length === 4) concatenation = { reference: data.readUInt16BE(0), total: data[2]!, sequence: data[3]! };
    offset += 2 + length;
  }
  return { concatenation, text };
}
