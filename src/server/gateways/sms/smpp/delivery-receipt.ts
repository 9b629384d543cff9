/** What a deliver_sm is, by the message type bits (5–2) of its esm_class (SMPP 3.4 §5.2.12). */
export type DeliverSmKind = 'mobile-originated' | 'receipt' | 'intermediate' | 'other';

export function deliverSmKind(esmClass: number): DeliverSmKind {
  switch (esmClass & 0x3c) {
    case 0x00:
      return 'mobile-originated';
    case 0x04: // SMSC delivery receipt
    case 0x08: // SME delivery acknowledgement
      return 'receipt';
    case 0x20: // intermediate delivery notification: never final
      return 'intermediate';
    default:
      return 'other';
  }
}

/** A final outcome, or null while the message is still on its way (ENROUTE, ACCEPTD, …). */
export type ReceiptOutcome = { status: 'delivered' } | { status: 'failed'; reason: string };

const FINAL_STATES: Record<string, 'delivered' | 'failed'> = {
  DELIVRD: 'delivered',
  DELIVERED: 'delivered',
  UNDELIV: 'failed',
  UNDELIVERABLE: 'failed',
  EXPIRED: 'failed',
  REJECTD: 'failed',
  REJECTED: 'failed',
  DELETED: 'failed',
  UNKNOWN: 'failed',
};

/** message_state TLV values (SMPP 3.4 §5.3.2.35) in the words of the receipt text. */
const MESSAGE_STATE_WORDS: Record<number, string> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};

export type ParsedReceipt = { messageId: string; outcome: ReceiptOutcome | null };

/**
 * Reads a delivery receipt: the id from receipted_message_id (else the `id:` of the text, SMPP 3.4
 * Appendix B) and the state from the text's `stat:` (else message_state). Ids are kept as the SMSC
 * wrote them: some write decimal in the text and hex in submit_sm_resp, and guessing breaks the rest.
 * Null when the receipt names no message.
 */
export function parseReceipt(receipt: { text: string; receiptedMessageId?: unknown; messageState?: unknown }): ParsedReceipt | null {
  const tlvId = typeof receipt.receiptedMessageId === 'string' ? receipt.receiptedMessageId.trim() : '';
  const messageId = tlvId || field(receipt.text, 'id');
  if (!messageId) return null;
  const stat = field(receipt.text, 'stat')?.toUpperCase() ?? (typeof receipt.messageState === 'number' ? MESSAGE_STATE_WORDS[receipt.messageState] : undefined);
  return { messageId, outcome: stat ? outcomeOf(stat, field(receipt.text, 'err')) : null };
}

function outcomeOf(stat: string, err: string | undefined): ReceiptOutcome | null {
  const status = FINAL_STATES[stat];
  if (status === undefined) return null;
  if (status === 'delivered') return { status };
  const withError = err !== undefined && !/^0+$/.test(err);
  return { status, reason: withError ? `${stat} err:${err}` : stat };
}

/** The value after `name:` in a receipt text, up to the next space. */
function field(text: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}:\\s*(\\S+)`, 'i').exec(text);
  return match?.[1];
}
