import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import type { CircuitState } from './circuit-breaker';

type Delta = {
  messages: number;
  errors: number;
  failovers: number;
  lastError?: string;
  lastErrorAt?: Date;
  circuit?: { state: CircuitState; openUntil: Date | null };
};

/**
 * What the router saw of each connection, written to sms_connection_states about once a second (not
 * once a message): today's messages, errors and failovers added to the row's (from 0 on a new UTC
 * day), the last error, and the circuit's state. Every sending process adds its own; a circuit one
 * process opened keeps the others' requests away too (team-routing.ts reads `open_until`).
 */
export function createConnectionStates(deps: { db: Db; now?: () => Date; log?: (message: string) => void }) {
  const now = deps.now ?? (() => new Date());
  let deltas = new Map<number, Delta>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const of = (id: number): Delta => {
    let delta = deltas.get(id);
    if (!delta) {
      delta = { messages: 0, errors: 0, failovers: 0 };
      deltas.set(id, delta);
    }
    return delta;
  };

  async function write(taken: Map<number, Delta>): Promise<void> {
    const at = now();
    for (const [id, delta] of taken) {
      const day = at.toISOString().slice(0, 10);
      const circuit = delta.circuit?.state ?? null;
      // A deleted connection's row is simply not written (the SELECT finds no connection).
      await deps.db.execute(sql`
        INSERT INTO sms_connection_states AS s (connection_id, circuit, open_until, last_error, last_error_at, day, messages_today, errors_today, failovers_today, updated_at)
        SELECT c.id, coalesce(${circuit}::text, 'closed'), ${delta.circuit?.openUntil ?? null}::timestamptz, ${delta.lastError ?? null}::text, ${delta.lastErrorAt ?? null}::timestamptz,
               ${day}::date, ${delta.messages}, ${delta.errors}, ${delta.failovers}, ${at}
          FROM sms_connections c WHERE c.id = ${id}
        ON CONFLICT (connection_id) DO UPDATE SET
          circuit = CASE WHEN ${circuit}::text IS NULL THEN s.circuit ELSE EXCLUDED.circuit END,
          open_until = CASE WHEN ${circuit}::text IS NULL THEN s.open_until ELSE EXCLUDED.open_until END,
          last_error = coalesce(EXCLUDED.last_error, s.last_error),
          last_error_at = coalesce(EXCLUDED.last_error_at, s.last_error_at),
          messages_today = EXCLUDED.messages_today + CASE WHEN s.day = EXCLUDED.day THEN s.messages_today ELSE 0 END,
          errors_today = EXCLUDED.errors_today + CASE WHEN s.day = EXCLUDED.day THEN s.errors_today ELSE 0 END,
          failovers_today = EXCLUDED.failovers_today + CASE WHEN s.day = EXCLUDED.day THEN s.failovers_today ELSE 0 END,
          day = EXCLUDED.day, updated_at = EXCLUDED.updated_at`);
    }
  }

  return {
    /** Messages a connection took (or refused for their recipient). */
    messages(id: number, count: number): void {
      of(id).messages += count;
    },
    /** A failed request (transient, account, in doubt), with what went wrong. */
    error(id: number, error: string): void {
      const delta = of(id);
      delta.errors += 1;
      delta.lastError = error.slice(0, 500);
      delta.lastErrorAt = now();
    },
    /** Messages that left this connection for the next of their route. */
    failovers(id: number, count: number): void {
      of(id).failovers += count;
    },
    circuit(id: number, state: CircuitState, openUntil: Date | null): void {
      of(id).circuit = { state, openUntil };
    },
    /** Writes what was seen since the last write (one at a time; a failed write keeps nothing, the metrics still have it). */
    flush(): Promise<void> {
      flushing = flushing.then(async () => {
        if (deltas.size === 0) return;
        const taken = deltas;
        deltas = new Map();
        await write(taken).catch((error: Error) => deps.log?.(`connection states not written: ${error.message}`));
      });
      return flushing;
    },
    start(intervalMs = 1_000): void {
      timer ??= setInterval(() => void this.flush(), intervalMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await this.flush();
    },
  };
}
export type ConnectionStates = ReturnType<typeof createConnectionStates>;
