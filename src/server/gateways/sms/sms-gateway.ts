/** One message handed to a gateway; `clientRef` (the message uuid) makes a resubmission harmless where the gateway allows it. */
export type OutgoingSms = { clientRef: string; to: string; from: string; body: string };

/**
 * What became of one submitted message:
 * - accepted, with the gateway's id (its receipts name it);
 * - refused for good (the reason is shown to the user as the message's failure reason);
 * - `notSent`: certainly never handed over (no link, or the submission was aborted before it left),
 *   so offering it again cannot send it twice.
 * A message left out of the results is **in doubt**: it may have been handed over (the connection
 * dropped before the answer came). The engine applies its in-doubt policy to it.
 */
export type SubmitResult = { clientRef: string; gatewayId: string } | { clientRef: string; rejected: string } | { clientRef: string; notSent: true };

/** A delivery receipt, in Herald's terms (adapters map their provider's statuses onto these). */
export type Receipt = { gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date };
/**
 * A message from a handset. `key` names this delivery at the gateway (for SMPP: the SMSC's identity
 * of the PDU) and is the same when the gateway delivers it again, so a redelivery is stored once.
 */
export type InboundSms = { from: string; to: string; body: string; at: Date; key?: string };

/**
 * A listener that stores what it is given. The gateway acknowledges the receipt or message to its
 * sender only once the promise resolves; when it rejects, the gateway answers with an error so the
 * sender delivers it again (nothing is acknowledged that was not stored).
 */
export type DurableListener<T> = (value: T) => Promise<void>;

/** The port the engine sends through: the simulator, SMPP, or anything else. */
export type SmsGateway = {
  /**
   * Hands messages over. When `signal` aborts (the engine lost its lease, or the campaign expired),
   * messages not yet handed over come back `notSent`; those already on their way finish as usual.
   * `fence` is the batch's lease token, greater for each later owner of the same messages: a gateway
   * that can recall (below) refuses, as `notSent`, a message recalled under a greater fence, so an
   * owner that lost its lease while its hand-over was on the way cannot send what its successor
   * was told had not been taken. Others ignore it.
   */
  submit(batch: OutgoingSms[], options?: { signal?: AbortSignal; fence?: string }): Promise<SubmitResult[]>;
  /** Receipts come in groups: as many as arrived together (an SMPP deliver_sm carries one; the simulator hands over a batch's). */
  onReceipts(listener: DurableListener<Receipt[]>): void;
  onInbound(listener: DurableListener<InboundSms>): void;
  close(): Promise<void>;
  /**
   * The most messages the engine should hand over before recording them as submitted. A gateway
   * that cannot recognise a resubmission (SMPP) sets it: it bounds what can be in doubt after a
   * crash (this many per engine lane). Absent: no limit.
   */
  readonly batchLimit?: number;
  /**
   * Whether the gateway can hand messages over right now (SMPP: the transceiver bind is up), for
   * metrics and readiness. Absent: always (the simulator).
   */
  connected?(): boolean;
  /** True when the gateway recognises a resubmitted client reference and sends it once (the simulator). */
  readonly idempotent?: boolean;
  /**
   * For a gateway that can tell: which of these client references it has already taken, with their
   * gateway ids. The engine asks it about messages in doubt instead of guessing, so nothing is sent
   * twice and nothing is left out. A gateway that answers should also deliver again the receipts of
   * what it names that were never acknowledged (as an SMSC redelivers to the next bind). Under a
   * `fence` the answer waits for hand-overs already under way and holds: from then on the gateway
   * refuses these references under a smaller fence.
   */
  recall?(clientRefs: string[], fence?: string): Promise<Array<{ clientRef: string; gatewayId: string }>>;
};
