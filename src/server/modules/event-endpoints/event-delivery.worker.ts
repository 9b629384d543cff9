import type { JobQueue, PeriodicJob } from '../../jobs/runner';
import type { ReportLinks } from '../reports/report-links';
import type { EventDeliverer } from './event-deliverer';
import type { EventOutbox } from './event-outbox';

export type EventDeliveryWorkerOptions = {
  /** Most messages in one call of a message event (EVENT_BATCH_SIZE). */
  batchSize: number;
  /** Calls under way at once, per process (default 8). */
  concurrency?: number;
  /** How long a taken delivery is this worker's (default 2 min); longer than a call can take (WEBHOOK_TIMEOUT_MS). */
  leaseMs?: number;
};

/** How often deliveries past their keeping are deleted (the periodic job `event_delivery.sweep`). */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Pushes events to the endpoints: takes what the triggers committed to the outbox into deliveries,
 * then calls those that are due, a few at once, until none are left: the queue `event_delivery` of
 * the job runner (jobs/runner.ts), which runs it every second. Any number of processes run it: each takes its own events and deliveries (SKIP LOCKED), and a delivery whose
 * process died is taken again once its lease has passed (the receiver sees the same `webhook-id`).
 */
export function createEventDeliveryWorker(deps: {
  outbox: EventOutbox;
  deliver: EventDeliverer;
  reportLinks: ReportLinks;
  log: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  options: EventDeliveryWorkerOptions;
}) {
  const concurrency = deps.options.concurrency ?? 8;
  const leaseMs = deps.options.leaseMs ?? 120_000;

  /** A ready report's event carries its signed download link, which only the service can make. */
  const enrich = (event: { type: string; data: Record<string, unknown> }): Record<string, unknown> => {
    if (event.type !== 'report.ready') return event.data;
    const { public_url: publicUrl, ...job } = event.data.report_job as { uuid: string; link_expires_at: string | null; public_url: string | null };
    const download_url = job.link_expires_at ? deps.reportLinks.url(job.uuid, new Date(job.link_expires_at), publicUrl ?? undefined) : null;
    return { report_job: { ...job, download_url } };
  };

  /** One round: every committed event into deliveries, then the due deliveries, `concurrency` at a time. */
  async function runOnce(stopping: () => boolean = () => false): Promise<number> {
    // A few events a transaction: one message event can list a whole engine batch (5,000 messages).
    while ((await deps.outbox.fanOut(50, deps.options.batchSize, enrich)) > 0 && !stopping());
    let calls = 0;
    while (!stopping()) {
      const due = await deps.outbox.claimDue(concurrency, leaseMs);
      if (due.length === 0) break;
      await Promise.all(due.map((delivery) => deps.deliver(delivery)));
      calls += due.length;
    }
    return calls;
  }

  const queue: JobQueue = { name: 'event_delivery', runDue: runOnce };
  const sweep: PeriodicJob = {
    name: 'event_delivery.sweep',
    everyMs: SWEEP_EVERY_MS,
    atStart: true,
    async run() {
      const swept = await deps.outbox.sweep();
      if (swept > 0) deps.log('info', 'old event deliveries deleted', { deliveries: swept });
    },
  };
  return { runOnce: () => runOnce(), queue, sweep };
}
export type EventDeliveryWorker = ReturnType<typeof createEventDeliveryWorker>;
