/** One message handed to a gateway; `clientRef` (the message uuid) makes a resubmission harmless. */
export type OutgoingSms = { clientRef: string; to: string; from: string; body: string };
export type SubmitResult = { clientRef: string; gatewayId: string };

/** A delivery receipt, in Herald's terms (adapters map their provider's statuses onto these). */
export type Receipt = { gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date };
export type InboundSms = { from: string; to: string; body: string; at: Date };

/** The port the engine sends through: the simulator, SMPP, or anything else. */
export type SmsGateway = {
  submit(batch: OutgoingSms[]): Promise<SubmitResult[]>;
  onReceipt(listener: (receipt: Receipt) => void): void;
  onInbound(listener: (message: InboundSms) => void): void;
  close(): Promise<void>;
};
