import type { Db } from '../../db/client';
import type { EngineStore } from '../engine-store';
import { createClaimStore } from './claims';
import { createExpiryStore } from './expiry';
import { createRateBudgetStore } from './rate-budget';
import { createReceiptStore } from './receipts';
import { createReplyStore } from './replies';
import { createStartStore, type ApprovalMailOptions, type AudienceSizes } from './start';

/**
 * The engine's store over PostgreSQL, one file a step. `audience`: how a large campaign's messages are
 * written (tests choose small sizes); `defaultZone`: quiet hours' zone for a team without its own (APP_TIMEZONE);
 * `publicUrl`: where the e-mails about a campaign held for approval point (PUBLIC_URL).
 */
export function createEngineStore(db: Db, options: { audience?: AudienceSizes; defaultZone?: string; publicUrl?: string } = {}): EngineStore {
  const mail: ApprovalMailOptions = { publicUrl: options.publicUrl ?? '', zone: options.defaultZone ?? 'UTC' };
  return {
    ...createStartStore(db, options.audience, mail),
    ...createClaimStore(db, { defaultZone: options.defaultZone }),
    ...createReceiptStore(db),
    ...createExpiryStore(db),
    ...createRateBudgetStore(db),
    ...createReplyStore(db),
  };
}
