/** Type of number and numbering plan (SMPP 3.4 §5.2.5–5.2.6) of the addresses Herald sends and receives. */
const TON = { unknown: 0, international: 1, networkSpecific: 3, alphanumeric: 5 } as const;
const NPI = { unknown: 0, isdn: 1 } as const;

/** Numeric senders up to this many digits are short codes; longer ones are full numbers. */
const SHORT_CODE_MAX_DIGITS = 8;

/**
 * The originator as the SMSC wants it: `+E.164` is international (sent without the plus), a short
 * number a network-specific short code, a national number (leading 0) left for the SMSC to read,
 * and anything with letters an alphanumeric sender.
 */
export function sourceAddress(from: string): { source_addr_ton: number; source_addr_npi: number; source_addr: string } {
  const sender = from.trim();
  const address = (ton: number, npi: number, value: string) => ({ source_addr_ton: ton, source_addr_npi: npi, source_addr: value });
  if (/^\+\d+$/.test(sender)) return address(TON.international, NPI.isdn, sender.slice(1));
  if (/^\d+$/.test(sender)) {
    if (sender.length <= SHORT_CODE_MAX_DIGITS) return address(TON.networkSpecific, NPI.unknown, sender);
    if (sender.startsWith('0')) return address(TON.unknown, NPI.isdn, sender);
    return address(TON.international, NPI.isdn, sender);
  }
  return address(TON.alphanumeric, NPI.unknown, sender);
}

/** Recipients are E.164 (the engine normalises them); SMPP carries them without the plus. */
export function destinationAddress(to: string): { dest_addr_ton: number; dest_addr_npi: number; destination_addr: string } {
  return { dest_addr_ton: TON.international, dest_addr_npi: NPI.isdn, destination_addr: to.trim().replace(/^\+/, '') };
}

/** The sender of a mobile-originated message in Herald's form: `+E.164` when the SMSC says it is international. */
export function inboundSender(ton: number, address: string): string {
  return ton === TON.international && !address.startsWith('+') ? `+${address}` : address;
}
