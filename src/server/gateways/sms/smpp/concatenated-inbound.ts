type Answer = (fields?: Record<string, unknown>) => void;

/**
 * Collects the parts of concatenated mobile-originated messages until all have arrived. Parts are
 * joined as octets and decoded once, so a character split across two parts still reads right.
 * Each part comes with its acknowledgement, held until the whole message is stored (the caller
 * answers them), so a crash meanwhile has the SMSC deliver every part again. A message whose parts
 * stop coming is dropped after `timeoutMs` (handsets send parts seconds apart) and its parts are
 * acknowledged: delivered again, they would be dropped again.
 */
export function createConcatenatedInbound(options: { timeoutMs: number; onDropped?: (received: number, total: number) => void }) {
  type Pending = { parts: Array<Buffer | undefined>; received: number; waiting: Answer[]; timer: NodeJS.Timeout };
  const pending = new Map<string, Pending>();

  return {
    /**
     * Adds part `sequence` (from 1) of `total` with its acknowledgement. When this was the last part
     * missing: the parts' octets in order, and the acknowledgements of the earlier parts (this one's
     * is the caller's). Otherwise null, and `answer` is kept.
     */
    add(key: string, sequence: number, total: number, octets: Buffer, answer: Answer): { parts: Buffer[]; waiting: Answer[] } | null {
      if (sequence < 1 || sequence > total) {
        answer();
        return null;
      }
      let message = pending.get(key);
      if (!message) {
        const timer = setTimeout(() => {
          const dropped = pending.get(key);
          pending.delete(key);
          if (!dropped) return;
          options.onDropped?.(dropped.received, total);
          for (const waiting of dropped.waiting) waiting();
        }, options.timeoutMs);
        timer.unref();
        message = { parts: new Array<Buffer | undefined>(total).fill(undefined), received: 0, waiting: [], timer };
        pending.set(key, message);
      }
      if (message.parts[sequence - 1] === undefined) message.received++;
      message.parts[sequence - 1] = octets;
      if (message.received < total) {
        message.waiting.push(answer);
        return null;
      }
      clearTimeout(message.timer);
      pending.delete(key);
      return { parts: message.parts as Buffer[], waiting: message.waiting };
    },
    close(): void {
      for (const message of pending.values()) clearTimeout(message.timer);
      pending.clear();
    },
  };
}
