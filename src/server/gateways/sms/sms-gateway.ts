/** One message handed to a gateway; `clientRef` (the message uuid) makes a resubmission harmless where the gateway allows it. */
export type OutgoingSms = { clientRef: string; to: string; from: string; body: string };

/**
 * What became of one submitted message:
 * - accepted, with the gateway's id (its receipts name it);
 * - `connectionId`: the team's SMS connection that took or refused it (the router's; absent for the
 *   installation's gateway), recorded on the message;
 * - refused for good (the reason is shown to the user as the message's failure reason);
 * - `notSent`: certainly never handed over (no link, or the submission was aborted before it left),
 *   so offering it again cannot send it twice.
 * A message left out of the results is **in doubt**: it may have been handed over (the connection
 * dropped before the answer came). The engine applies its in-doubt policy to it.
 */
export type SubmitResult =
  | { clientRef: string; gatewayId: string; connectionId?: number }
  | { clientRef: string; rejected: string; connectionId?: number }
  | { clientRef: string; notSent: true };

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

/**
 * How one hand-over is made. `signal`: when it aborts (the engine lost its lease, or the campaign
 * expired), messages not yet handed over come back `notSent`; those already on their way finish as
 * usual. `attempt`: an opaque token naming this attempt at the messages, greater for each later
 * attempt at the same ones (the engine's batch lease token: a batch taken over from an owner that
 * died gets a greater one). A gateway may use it to keep an older attempt's late hand-over from
 * landing after a newer attempt asked what it took (see `taken`), or ignore it.
 */
export type SubmitOptions = { signal?: AbortSignal; attempt?: string };

/** The port the engine sends through: the simulator, SMPP, or any provider's adapter. */
export type SmsGateway = {
  /** Hands messages over (see SubmitOptions for the abort signal and the attempt token). */
  submit(batch: OutgoingSms[], options?: SubmitOptions): Promise<SubmitResult[]>;
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
   * A capability of a gateway that can tell which client references it has already taken: those of
   * these it took, with their gateway ids (an HTTP provider can look a message up by the client
   * reference Herald sets; the simulator keeps a ledger). The engine asks it about messages in doubt
   * instead of guessing (its in-doubt policy `ask`), so nothing is sent twice and nothing is left
   * out. `attempt` is that of the asking owner (greater than any earlier owner's, SubmitOptions); a
   * gateway that orders hand-overs by it makes the answer final: it waits for hand-overs already
   * under way and from then on refuses these references under a smaller attempt (the simulator's
   * guarantee, simulator-ledger.ts). A gateway that answers should also deliver again the receipts
   * of what it names that were never acknowledged (as an SMSC redelivers to the next bind).
   */
  taken?(clientRefs: string[], attempt?: string): Promise<Array<{ clientRef: string; gatewayId: string }>>;
};
