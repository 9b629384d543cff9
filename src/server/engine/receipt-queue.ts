import type { ReceiptRecord, ReceiptStore } from './engine-store';

/** Receipts that arrived together (one gateway delivery), answered together. */
type Waiting = { receipts: ReceiptRecord[]; stored: () => void; refused: (error: Error) => void };

/** The most receipts one write carries (unless one group alone is larger): a statement's cost grows faster than its size beyond a few thousand. */
const MAX_WRITE = 5_000;

/**
 * Receipts on their way to the database, written as a group: while one write runs, those that
 * arrive wait and go together in the next (so a write is as large as the pace demands and no
 * receipt waits on a timer). A delivery's promise resolves once its receipts are stored — the
 * gateway acknowledges them then — and rejects when the write fails, so the gateway answers with an
 * error and the sender delivers them again. A delivery naming a submission this process has handed
 * over but not recorded yet (`hold`) waits in memory until it is (`release`).
 */
export function createReceiptQueue(deps: { store: ReceiptStore; log?: (message: string) => void }) {
  let waiting: Waiting[] = [];
  const held = new Map<string, number>();
  let writing: Promise<void> | undefined;
  let closed = false;

  const isHeld = (delivery: Waiting) => held.size > 0 && delivery.receipts.some((receipt) => held.has(receipt.gatewayId));

  const takeReady = (): Waiting[] => {
    const ready: Waiting[] = [];
    const rest: Waiting[] = [];
    let size = 0;
    for (const delivery of waiting) {
      if ((ready.length === 0 || size + delivery.receipts.length <= MAX_WRITE) && !isHeld(delivery)) {
        ready.push(delivery);
        size += delivery.receipts.length;
      } else rest.push(delivery);
    }
    waiting = rest;
    return ready;
  };

  const writeAll = async () => {
    for (let ready = takeReady(); ready.length > 0; ready = takeReady()) {
      try {
        await deps.store.markReceipts(ready.flatMap((delivery) => delivery.receipts));
        for (const delivery of ready) delivery.stored();
      } catch (error) {
        deps.log?.(`receipts not stored (the gateway is told, and delivers them again): ${error instanceof Error ? error.message : error}`);
        for (const delivery of ready) delivery.refused(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };

  const writeSoon = (): Promise<void> => {
    writing ??= writeAll().finally(() => {
      writing = undefined;
      // Arrived between the last look and the end of this write.
      if (waiting.some((delivery) => !isHeld(delivery))) void writeSoon();
    });
    return writing;
  };

  return {
    /** Stores these receipts (one gateway delivery); resolves once they are stored. */
    add(receipts: ReceiptRecord[]): Promise<void> {
      if (closed) return Promise.reject(new Error('the engine has stopped'));
      if (receipts.length === 0) return Promise.resolve();
      return new Promise<void>((stored, refused) => {
        const delivery = { receipts, stored, refused };
        waiting.push(delivery);
        if (!isHeld(delivery)) void writeSoon();
      });
    },
    hold(gatewayIds: string[]): void {
      for (const id of gatewayIds) held.set(id, (held.get(id) ?? 0) + 1);
    },
    release(gatewayIds: string[]): void {
      for (const id of gatewayIds) {
        const count = (held.get(id) ?? 1) - 1;
        if (count <= 0) held.delete(id);
        else held.set(id, count);
      }
      if (waiting.length > 0) void writeSoon();
    },
    /** Writes everything ready now (and waits for a write in progress). */
    async flush(): Promise<void> {
      while (writing) await writing;
      await writeSoon();
    },
    /** Writes what is ready and refuses what still waits (the gateway delivers those again). */
    async close(): Promise<void> {
      closed = true;
      await this.flush();
      for (const delivery of waiting) delivery.refused(new Error('the engine has stopped'));
      waiting = [];
    },
  };
}
