/** One message handed to a gateway; `clientRef` (the message uuid) makes a resubmission harmless where the gateway allows it. */
export type OutgoingSms = { clientRef: string; to: string; from: string; body: string };

/**
 * What became of one submitted message: accepted (with the gateway's id, which its receipts name)
 * or refused for good (the reason is shown to the user as the message's failure reason). A message
 * a gateway could not settle either way (the connection dropped) is left out of the results: the
 * engine offers it again once its lease ends.
 */
export type SubmitResult = { clientRef: string; gatewayId: string } | { clientRef: string; rejected: string };

/** A delivery receipt, in Herald's terms (adapters map their provider's statuses onto these). */
export type Receipt = { gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date };
export type InboundSms = { from: string; to: string; body: string; at: Date };

/** The port the engine sends through: the simulator, SMPP, or anything else. */
export type SmsGateway = {
  submit(batch: OutgoingSms[]): Promise<SubmitResult[]>;
  onReceipt(listener: (receipt: Receipt) => void): void;
  onInbound(listener: (message: InboundSms) => void): void;
  close(): Promise<void>;
  /**
   * The most messages the engine should hand over before recording them as submitted. A gateway
   * that cannot recognise a resubmission (SMPP) sets it: after a crash, at most this many per
   * engine lane are sent again. Absent: no limit (the simulator is idempotent on clientRef).
   */
  readonly batchLimit?: number;
};
