import type { Db } from '../../db/client';
import type { EngineStore } from '../engine-store';
import { createClaimStore } from './claims';
import { createExpiryStore } from './expiry';
import { createRateBudgetStore } from './rate-budget';
import { createReceiptStore } from './receipts';
import { createReplyStore } from './replies';
import { createStartStore, type AudienceSizes } from './start';

/**
 * The engine's store over PostgreSQL, one file a step. `audience`: how a large campaign's messages are
 * written (tests choose small sizes); `defaultZone`: quiet hours' zone for a team without its own (APP_TIMEZONE).
 */
export function createEngineStore(db: Db, options: { audience?: AudienceSizes; defaultZone?: string } = {}): EngineStore {
  return {
    ...createStartStore(db, options.audience),
    ...createClaimStore(db, { defaultZone: options.defaultZone }),
    ...createReceiptStore(db),
    ...createExpiryStore(db),
    ...createRateBudgetStore(db),
    ...createReplyStore(db),
  };
}
