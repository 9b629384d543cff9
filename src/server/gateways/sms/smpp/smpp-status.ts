import smpp from 'smpp';

/** Command status values Herald acts on (SMPP 3.4 §5.1.3). */
export const STATUS = {
  ok: 0x00,
  invalidBindStatus: 0x04,
  messageQueueFull: 0x14,
  throttled: 0x58,
  /** ESME_RX_T_APPN: the ESME could not take the deliver_sm now; the SMSC delivers it again later. */
  temporaryAppError: 0x64,
} as const;

let names: Map<number, string> | undefined;

/** `SMPP 0x0000000B ESME_RINVDSTADR`: the form a user sees as a message's failure reason (vendor codes have no name). */
export function describeStatus(status: number): string {
  names ??= new Map(Object.entries(smpp.errors).map(([name, value]) => [value, name] as const));
  const name = names.get(status);
  const hex = `0x${status.toString(16).toUpperCase().padStart(8, '0')}`;
  return name ? `SMPP ${hex} ${name}` : `SMPP ${hex}`;
}
