import type { QuietHours } from '../../shared/schedule/quiet-hours';
/**
 * What the engine needs from its database, step by step. Every step is one statement or one
 * transaction whose result is the checkpoint: a crash between two steps loses nothing, and repeats
 * only work that is provably not yet handed over (or, for a batch marked `submitting`, applies the
 * in-doubt policy). Implemented over PostgreSQL in ./store/, one file a step.
 */
export type EngineStore = StartStore & ClaimStore & ReceiptStore & ExpiryStore & RateBudgetStore & ReplyStore;

export type SendingCampaign = {
  id: number;
  /** Its team: a team with SMS connections sends through its routes (the router), others through SMS_GATEWAY. */
  teamId: number;
  throttled: boolean;
  /** Where the throttle plan starts: sending began, or last resumed after a manual pause. */
  anchor: Date;
  sentSinceAnchor: number;
  scheduledFinishDate: Date | null;
  /** Nothing of the campaign is handed over from this moment on. */
  expiryDate: Date;
  pauses: Array<{ start: number; end: number }>;
  /** The team's quiet hours in its zone (a throttled plan treats them as pauses); null when off or ignored by the campaign. */
  quiet: { hours: QuietHours; zone: string } | null;
  queued: number;
  sender: string;
  body: string;
  /** The template's links by name, with the domain their short links are made on (null: the service's own). */
  links: Record<string, { id: number; destination: string; domain: string | null }>;
  /** An A/B test's variants by position (a message's `variant`), each with its sender, body and links; null without a test. */
  variants: Array<VariantContent> | null;
};

/** What a message of one variant is sent with. */
export type VariantContent = Pick<SendingCampaign, 'sender' | 'body' | 'links'>;

/** `variant`: the A/B test variant it carries (null without a test): its sender and template are sent. */
export type ClaimedMessage = { id: number; uuid: string; phoneNumber: string; customFields: Record<string, string>; variant?: number | null };

/** A batch as its owner holds it: the token fences every write (a takeover gives the batch a new one). */
export type Lease = { batchId: number; token: string };
export type ClaimedBatch = Lease & {
  messages: ClaimedMessage[];
  /** Taken over from an owner that died while handing it over, under `ask`: ask the gateway what it took before sending. */
  inDoubt?: boolean;
};

/**
 * What happens to a message whose submission is in doubt (it may or may not have been handed over):
 * `resend` offers it again (a duplicate is possible unless the gateway is idempotent), `fail` marks it
 * failed with reason `in_doubt` (never a duplicate; possibly never sent), `ask` asks a gateway that
 * can tell what it took (SmsGateway's `taken`; nothing in doubt remains: not counted). SMS_IN_DOUBT
 * chooses between `fail` and `resend`; `ask` is chosen by the gateway's capability.
 */
export type InDoubtPolicy = 'resend' | 'fail' | 'ask';

/** What became of a batch at the gateway, message by message (by message id). */
export type BatchOutcome = {
  /** `connectionId`: the team's connection that took (or refused) it; absent through SMS_GATEWAY. */
  submitted: Array<{ id: number; body: string; gatewayId: string; connectionId?: number }>;
  rejected: Array<{ id: number; body: string; reason: string; connectionId?: number }>;
  /** Certainly never handed over: offered again (or unsent once the campaign has expired). */
  notSent: number[];
  /** Maybe handed over: the policy decides. */
  inDoubt: number[];
};

export type ReceiptRecord = { gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date };
export type QueuedReply = { id: number; uuid: string; teamId: number; to: string; from: string; body: string };

export interface StartStore {
  /**
   * Campaigns whose send time has come: status 1 and their first messages (a throttled one: all of them). Returns their ids.
   * A campaign whose start fails is reported to `onFailure` and left for a minute, so it never holds up the others.
   */
  startDue(now: Date, limit?: number, onFailure?: (campaignId: number, error: Error) => void): Promise<number[]>;
  /** Writes more of the audiences of campaigns that started with part of theirs, for up to `budgetMs`. Returns how many messages it wrote. */
  extendAudiences(now: Date, budgetMs?: number): Promise<number>;
  /** Status 2 for campaigns with every message claimed and every batch settled. Returns their ids. */
  finishDone(now: Date): Promise<number[]>;
}

export interface ClaimStore {
  /** Sending campaigns not paused by hand, with what they need to send a tick. */
  sending(): Promise<SendingCampaign[]>;
  /**
   * Leases up to `limit` queued messages of a campaign under a new token: a batch whose owner
   * stopped renewing first (its in-doubt messages handled by `inDoubt`), else the next range.
   */
  claim(campaignId: number, limit: number, owner: string, now: Date, leaseMs: number, inDoubt: InDoubtPolicy): Promise<ClaimedBatch | undefined>;
  /** Durably marks the batch as being handed over (and renews it); false when the lease is no longer ours. */
  markSubmitting(lease: Lease, now: Date, leaseMs: number): Promise<boolean>;
  /** Extends the lease; false when it is no longer ours (taken over). */
  renew(lease: Lease, now: Date, leaseMs: number): Promise<boolean>;
  /** Records the gateway's outcome and releases the batch, in one transaction; `lost` (nothing written) when the lease is no longer ours. */
  settle(lease: Lease, outcome: BatchOutcome, inDoubt: InDoubtPolicy, now: Date, owner: string): Promise<'settled' | 'lost'>;
  /** Records the short links made for a batch; false when a code collided (make new ones). */
  insertShortLinks(rows: Array<{ code: string; messageId: number; linkId: number; linkName: string; destination: string }>): Promise<boolean>;
}

export interface ReceiptStore {
  /** Settles submitted messages by their receipts (those that come before their submission is recorded wait in early_receipts). */
  markReceipts(receipts: ReceiptRecord[]): Promise<void>;
}

export interface ExpiryStore {
  /** Applies expiry to campaigns past it: never to a batch still being handed over by a live owner. Returns the ids of those it cut short while they were sending. */
  expire(now: Date): Promise<number[]>;
}

export interface RateBudgetStore {
  /** Messages and replies that could go now (an idle engine takes no rate allowance). */
  pendingWork(): Promise<number>;
  /** Takes up to `want` sends from this second's allowance of `limit`, shared by every process. */
  takeRateBudget(now: Date, want: number, limit: number): Promise<number>;
  /** Hands back what a tick did not use. */
  returnRateBudget(now: Date, unused: number): Promise<void>;
}

export interface ReplyStore {
  claimReplies(limit: number, now: Date, leaseMs: number): Promise<QueuedReply[]>;
  settleReplies(
    outcome: {
      submitted: Array<{ id: number; gatewayId: string; connectionId?: number }>;
      rejected: Array<{ id: number; reason: string; connectionId?: number }>;
      unknown: number[];
    },
    now: Date,
  ): Promise<void>;
}
