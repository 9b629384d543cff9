import type { Db } from '../../db/client';
import type { EngineStore } from '../engine-store';
import { createClaimStore } from './claims';
import { createExpiryStore } from './expiry';
import { createRateBudgetStore } from './rate-budget';
import { createReceiptStore } from './receipts';
import { createReplyStore } from './replies';
import { createStartStore, type AudienceSizes } from './start';

/** The engine's store over PostgreSQL, one file a step. `audience`: how a large campaign's messages are written (tests choose small sizes). */
export function createEngineStore(db: Db, options: { audience?: AudienceSizes } = {}): EngineStore {
  return {
    ...createStartStore(db, options.audience),
    ...createClaimStore(db),
    ...createReceiptStore(db),
    ...createExpiryStore(db),
    ...createRateBudgetStore(db),
    ...createReplyStore(db),
  };
}
