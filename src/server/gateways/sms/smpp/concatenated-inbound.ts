/**
 * Collects the parts of concatenated mobile-originated messages until all have arrived. Parts are
 * joined as octets and decoded once, so a character split across two parts still reads right.
 * A message whose parts stop coming is dropped after `timeoutMs` (handsets send parts seconds apart).
 */
export function createConcatenatedInbound(options: { timeoutMs: number; onDropped?: (received: number, total: number) => void }) {
  const pending = new Map<string, { parts: Array<Buffer | undefined>; received: number; timer: NodeJS.Timeout }>();

  return {
    /** Adds part `sequence` (from 1) of `total`; returns the whole message's octets when this was the last one missing. */
    add(key: string, sequence: number, total: number, octets: Buffer): Buffer | null {
      if (sequence < 1 || sequence > total) return null;
      let message = pending.get(key);
      if (!message) {
        const timer = setTimeout(() => {
          const dropped = pending.get(key);
          pending.delete(key);
          if (dropped) options.onDropped?.(dropped.received, total);
        }, options.timeoutMs);
        timer.unref();
        message = { parts: new Array<Buffer | undefined>(total).fill(undefined), received: 0, timer };
        pending.set(key, message);
      }
      if (message.parts[sequence - 1] === undefined) message.received++;
      message.parts[sequence - 1] = octets;
      if (message.received < total) return null;
      clearTimeout(message.timer);
      pending.delete(key);
      return Buffer.concat(message.parts as Buffer[]);
    },
    close(): void {
      for (const message of pending.values()) clearTimeout(message.timer);
      pending.clear();
    },
  };
}
