import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';
import type { Clock } from '../lib/time';
import { readServiceState, type ServiceState } from './service-state';

/** What the metrics and readiness know of this process's SMS gateway (only a process that sends has one). */
export type ObservedGateway = { connected(): boolean };

/** What a scrape may wait for the database's numbers; beyond it they are left out of this scrape. */
const STATE_TIMEOUT_MS = 2_000;

/**
 * The Prometheus metrics of one Herald process (docs/operations.md), on a registry of its own (so
 * apps built side by side in one test process do not share series).
 *
 * Two kinds of series:
 * - **the service's state**, read from the database at scrape time (messages by status, queue depth,
 *   report jobs, inbound messages, imported rows): every process on one database reports the same
 *   numbers, so they are aggregated with `max`, never `sum`;
 * - **this process's own**, counted in memory (HTTP request durations, gateway submit time, errors and
 *   bind state, the process defaults): each process reports its own, aggregated with `sum`.
 */
export function createMetrics(deps: { database: Database; stateTimeoutMs?: number; defaultZone?: string; clock?: Clock }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's totals of active handles, requests and resources are gauges named like counters
  // (`promtool check metrics` flags them); the same series by type stay (`nodejs_active_handles{type}`: sum them).
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
  // The database's series: left out of a scrape when the database does not answer (a 0 would be a lie).
  const stateRegistry = new Registry();

  const timeoutMs = deps.stateTimeoutMs ?? STATE_TIMEOUT_MS;
  let gateway: ObservedGateway | undefined;
  /** The service's state for the scrape under way (one query for all of its gauges, which read it as they are collected). */
  let current: ServiceState = emptyState();

  new Gauge({
    name: 'herald_messages',
    help: 'Messages of every campaign by their current status (queued, submitted, delivered, failed, unsent), from the database: the same on every process.',
    labelNames: ['status'] as const,
    registers: [stateRegistry],
    collect() {
      for (const [status, count] of Object.entries(current.messages)) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'herald_queue_depth',
    help: 'Messages waiting to be handed to the SMS gateway now: queued messages of campaigns sending (not paused, nor held for a planned pause or quiet hours) and keyword replies, from the database.',
    registers: [stateRegistry],
    collect() {
      this.set(current.queueDepth);
    },
  });
  new Gauge({
    name: 'herald_queue_held',
    help: 'Queued messages of campaigns sending that wait on purpose now: in a planned pause, or for quiet hours, from the database.',
    registers: [stateRegistry],
    collect() {
      this.set(current.queueHeld);
    },
  });
  new Gauge({
    name: 'herald_report_jobs',
    help: 'Report jobs by status (queued, writing, mailing, sent, failed), from the database.',
    labelNames: ['status'] as const,
    registers: [stateRegistry],
    collect() {
      for (const [status, count] of Object.entries(current.reportJobs)) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'herald_event_deliveries',
    help: 'Events for event endpoints: committed and not yet made into deliveries (outbox), and deliveries pending, delivered and failed (kept 7 and 30 days), from the database.',
    labelNames: ['status'] as const,
    registers: [stateRegistry],
    collect() {
      for (const [status, count] of Object.entries(current.eventDeliveries)) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'herald_jobs',
    help: 'Background jobs by queue (report, account_mail, event_delivery, reply) and state: queued (waiting to run or for a retry), running (a worker holds it), failed (given up), from the database.',
    labelNames: ['queue', 'state'] as const,
    registers: [stateRegistry],
    collect() {
      for (const [queue, states] of Object.entries(current.jobs)) for (const [state, count] of Object.entries(states)) this.set({ queue, state }, count);
    },
  });
  new Gauge({
    name: 'herald_inbound_messages',
    help: 'Inbound messages stored (from handsets through the gateway, and through the API), from the database.',
    registers: [stateRegistry],
    collect() {
      this.set(current.inboundMessages);
    },
  });
  new Gauge({
    name: 'herald_import_rows',
    help: 'Rows read from contact import files (valid and invalid), from the database.',
    registers: [stateRegistry],
    collect() {
      this.set(current.importRows);
    },
  });

  const httpDuration = new Histogram({
    name: 'herald_http_request_duration_seconds',
    help: 'HTTP requests this process answered, by route pattern (never the raw URL), method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // Every process that serves the API takes providers' callbacks (modules/sms-callbacks).
  const providerCallbacks = new Counter({
    name: 'herald_provider_callbacks_total',
    help: "Callbacks (delivery statuses, inbound messages) this process took from SMS providers, by the connection's uuid and result: ok, forged (refused with 403), unknown_message (verified, but names no message of ours), malformed (verified, but nothing in it could be read).",
    labelNames: ['connection', 'result'] as const,
    registers: [registry],
  });

  // Every process that serves HTTP serves the hosted sign-up pages (modules/signup-page).
  const signupPosts = new Counter({
    name: 'herald_signup_posts_total',
    help: 'Posts of the hosted sign-up pages this process took, by result: requested (a confirmation text queued), renewed (a pending request renewed without a second text), honeypot, invalid, rate_limited.',
    labelNames: ['result'] as const,
    registers: [registry],
  });

  // The gateway's series exist only in a process that sends: an API process has no bind to report.
  const submitSeconds = new Histogram({
    name: 'herald_gateway_submit_seconds',
    help: "Time this process's SMS gateway took to take one batch (submit), in seconds.",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [],
  });
  const gatewayMessages = new Counter({
    name: 'herald_gateway_messages_total',
    help: 'Messages this process offered to its SMS gateway (each message of each hand-over), taken or not: the denominator of the refusal ratio.',
    registers: [],
  });
  const gatewayErrors = new Counter({
    name: 'herald_gateway_errors_total',
    help: "Messages this process's SMS gateway did not take, by code: the SMPP status name of a refusal, not_sent (no bind), in_doubt (no answer), exception (the submission threw).",
    labelNames: ['code'] as const,
    registers: [],
  });
  const gatewayConnected = new Gauge({
    name: 'herald_gateway_connected',
    help: "1 while this process's SMS gateway can hand messages over (SMPP: bound), else 0.",
    registers: [],
    collect() {
      this.set(gateway?.connected() ? 1 : 0);
    },
  });

  // A team's SMS connections (issue 34), labelled by the connection's uuid (a team has a handful).
  const providerRequests = new Counter({
    name: 'herald_provider_requests_total',
    help: 'Requests this process made to SMS providers through a connection, by outcome: accepted, refused_recipient, refused_transient, refused_account, in_doubt.',
    labelNames: ['connection', 'outcome'] as const,
    registers: [registry],
  });
  const providerLatency = new Histogram({
    name: 'herald_provider_latency_seconds',
    help: "Time an SMS provider took to answer one of this process's requests, in seconds (in-doubt requests: until they were given up).",
    labelNames: ['connection'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const providerCircuit = new Gauge({
    name: 'herald_provider_circuit_open',
    help: "1 while this process's circuit breaker keeps a connection's requests away (open), else 0.",
    labelNames: ['connection'] as const,
    registers: [registry],
  });

  return {
    registry,
    /** One request to a provider through a connection: its outcome and how long it took. */
    observeProviderRequest(connection: string, outcome: string, seconds: number): void {
      providerRequests.inc({ connection, outcome });
      providerLatency.observe({ connection }, seconds);
    },
    /** A connection's circuit opened (true) or closed again. */
    setProviderCircuit(connection: string, open: boolean): void {
      providerCircuit.set({ connection }, open ? 1 : 0);
    },
    /** The text a scrape reads (and its content type). */
    async render(): Promise<{ contentType: string; body: string }> {
      const state = await withTimeout(
        readServiceState(deps.database.db, { timeoutMs, defaultZone: deps.defaultZone, now: deps.clock?.now() }),
        timeoutMs,
      ).catch(() => null);
      const own = await registry.metrics();
      if (!state) return { contentType: registry.contentType, body: own };
      current = state;
      return { contentType: registry.contentType, body: `${own}\n${await stateRegistry.metrics()}` };
    },
    /** This process sends through `observed`: its bind state, submit times and errors are reported from now on. */
    useGateway(observed: ObservedGateway): void {
      if (!gateway) for (const metric of [submitSeconds, gatewayMessages, gatewayErrors, gatewayConnected]) registry.registerMetric(metric);
      gateway = observed;
    },
    gateway: (): ObservedGateway | undefined => gateway,
    /** One hand-over of `offered` messages: how long it took and the messages it did not take, by code. */
    observeSubmit(seconds: number, offered: number, errors: Iterable<string>): void {
      submitSeconds.observe(seconds);
      gatewayMessages.inc(offered);
      for (const code of errors) gatewayErrors.inc({ code });
    },
    observeRequest(labels: { route: string; method: string; status: string }, seconds: number): void {
      httpDuration.observe(labels, seconds);
    },
    /** One provider callback at a connection (its uuid), and what became of it. */
    observeProviderCallback(connection: string, result: ProviderCallbackResult): void {
      providerCallbacks.inc({ connection, result });
    },
    /** One post of a sign-up page, and what became of it. */
    observeSignup(result: string): void {
      signupPosts.inc({ result });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** What became of a provider's callback (`herald_provider_callbacks_total{result}`). */
export type ProviderCallbackResult = 'ok' | 'forged' | 'unknown_message' | 'malformed';

const emptyState = (): ServiceState => ({
  messages: { queued: 0, submitted: 0, delivered: 0, failed: 0, unsent: 0 },
  queueDepth: 0,
  queueHeld: 0,
  reportJobs: { queued: 0, writing: 0, mailing: 0, sent: 0, failed: 0 },
  inboundMessages: 0,
  importRows: 0,
  eventDeliveries: { outbox: 0, pending: 0, delivered: 0, failed: 0 },
  jobs: {
    report: { queued: 0, running: 0, failed: 0 },
    account_mail: { queued: 0, running: 0, failed: 0 },
    event_delivery: { queued: 0, running: 0, failed: 0 },
    reply: { queued: 0, running: 0, failed: 0 },
  },
});

/** `promise`, or a rejection once `ms` have passed without its answer. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
