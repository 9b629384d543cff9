import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { QuietHours } from '../../shared/schedule/quiet-hours';
import { OUTBOUND_MESSAGE_KINDS, OUTBOUND_MESSAGE_STATUSES } from '../../shared/contract/conversations';

// Every table of the database, described as db/migrations/*.sql create them: columns with their
// types, nullability and defaults, keys, single-column unique constraints and foreign keys (indexes
// and checks are the migrations' alone). The SQL files are the database's truth; schema.test.ts
// compares this file with the migrated database, both ways, and names what to add or change.
// Drizzle's query builder uses these descriptions; raw statements do not lean on them: each parses
// its rows with a zod schema at the repository edge (rows.ts).
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const stamps = () => ({
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
});

export const teams = pgTable('teams', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  name: text('name').notNull(),
  /** Campaigns of at least this many recipients need an admin's approval (0: all; null: none). */
  approvalThreshold: integer('approval_threshold'),
  confirmThreshold: integer('confirm_threshold').notNull().default(1000),
  /** Read as text by node-postgres. */
  pricePerSegment: numeric('price_per_segment', { precision: 12, scale: 5 }),
  currency: text('currency').notNull().default('EUR'),
  /** null: the service's APP_TIMEZONE. */
  timeZone: text('time_zone'),
  quietHours: jsonb('quiet_hours').$type<QuietHours>(),
  /** null: the service's DEFAULT_COUNTRY (0038). */
  defaultCountry: text('default_country'),
  // Migration 0026's texts: an insert leaves these columns out.
  optOutReply: text('opt_out_reply').notNull().default('You will receive no more messages from us. Reply START to subscribe again.'),
  optInReply: text('opt_in_reply').notNull().default('You are subscribed again. Reply STOP to unsubscribe.'),
  helpReply: text('help_reply').notNull().default('Reply STOP to unsubscribe.'),
  /** Numbers members may send tests to besides their own (E.164 digits; migration 0036). */
  testNumbers: text('test_numbers')
    .array()
    .notNull()
    .default(sql`'{}'`),
  ...stamps(),
  /** The attribution windows of conversions (0048): a human click within so many days, else a delivery within so many hours; 0: off. */
  clickWindowDays: integer('click_window_days').notNull().default(5),
  viewWindowHours: integer('view_window_hours').notNull().default(24),
  /** The frequency cap (0057): at most so many marketing messages to a number within so many days; both null: none. */
  frequencyCapMessages: integer('frequency_cap_messages'),
  frequencyCapDays: integer('frequency_cap_days'),
  /** A keyword sign-up waits for the number's YES (0054; docs/consent.md). */
  doubleOptIn: boolean('double_opt_in').notNull().default(false),
});

export const users = pgTable('users', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Where the member's test sends go by default. */
  phoneNumber: text('phone_number'),
  currentTeamId: bigint('current_team_id', { mode: 'number' }).references(() => teams.id, { onDelete: 'set null' }),
  ...stamps(),
});

export const memberships = pgTable(
  'memberships',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: bigint('team_id', { mode: 'number' })
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'editor', 'viewer'] }).notNull(),
    createdAt: moment('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.teamId] })],
);

export const apiTokens = pgTable('api_tokens', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['personal', 'session'] }).notNull(),
  /** The team the token acts in, fixed when it is made (a session's moves with its switch-team). */
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  scope: text('scope', { enum: ['full', 'read_only'] })
    .notNull()
    .default('full'),
  name: text('name').notNull(),
  tokenHash: bytea('token_hash').notNull().unique(),
  hint: text('hint').notNull(),
  expiresAt: moment('expires_at'),
  lastUsedAt: moment('last_used_at'),
  revokedAt: moment('revoked_at'),
  createdAt: moment('created_at').notNull().defaultNow(),
});

export const senders = pgTable('senders', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  sender: text('sender').notNull(),
  status: text('status').notNull().default('1'),
  ...stamps(),
});

export const contactGroups = pgTable('contact_groups', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description'),
  deletable: boolean('deletable').notNull().default(true),
  systemRole: text('system_role', { enum: ['optouts'] }),
  headers: jsonb('headers').$type<string[]>().notNull().default([]),
  contactCount: integer('contact_count').notNull().default(0),
  modifyingSince: moment('modifying_since'),
  ...stamps(),
});

// Keyed by group and number, with no foreign key (migration 0029): writers lock the group's row
// first, and deleting a group deletes its contacts by trigger.
export const contacts = pgTable(
  'contacts',
  {
    contactGroupId: bigint('contact_group_id', { mode: 'number' }).notNull(),
    phoneNumber: text('phone_number').notNull(),
    customFields: jsonb('custom_fields').$type<Record<string, string>>().notNull().default({}),
    ...stamps(),
  },
  (table) => [primaryKey({ columns: [table.contactGroupId, table.phoneNumber] })],
);

export const vanityDomains = pgTable('vanity_domains', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  /** null: the service's own link domain (PUBLIC_URL/l). */
  domain: text('domain'),
  status: text('status').notNull().default('1'),
  ...stamps(),
});

export const templates = pgTable('templates', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  body: text('body').notNull(),
  sender: text('sender').notNull(),
  ...stamps(),
});

export const links = pgTable('links', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  templateId: bigint('template_id', { mode: 'number' })
    .notNull()
    .references(() => templates.id, { onDelete: 'cascade' }),
  vanityDomainId: bigint('vanity_domain_id', { mode: 'number' })
    .notNull()
    .references(() => vanityDomains.id),
  name: text('name').notNull(),
  destination: text('destination').notNull(),
  ...stamps(),
});

export const webhooks = pgTable('webhooks', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  url: text('url').notNull(),
  headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
  secretEncrypted: bytea('secret_encrypted').notNull(),
  ...stamps(),
});

export const keywords = pgTable('keywords', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  keyword: text('keyword').notNull(),
  message: text('message').notNull().default(''),
  help: text('help').notNull().default(''),
  status: text('status').notNull().default('1'),
  addContactToGroup: boolean('add_contact_to_group').notNull().default(false),
  callWebhook: boolean('call_webhook').notNull().default(false),
  ...stamps(),
});

export const keywordContactGroups = pgTable(
  'keyword_contact_groups',
  {
    keywordId: bigint('keyword_id', { mode: 'number' })
      .notNull()
      .references(() => keywords.id, { onDelete: 'cascade' }),
    contactGroupId: bigint('contact_group_id', { mode: 'number' })
      .notNull()
      .references(() => contactGroups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.keywordId, table.contactGroupId] })],
);

export const keywordWebhooks = pgTable(
  'keyword_webhooks',
  {
    keywordId: bigint('keyword_id', { mode: 'number' })
      .notNull()
      .references(() => keywords.id, { onDelete: 'cascade' }),
    webhookId: bigint('webhook_id', { mode: 'number' })
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.keywordId, table.webhookId] })],
);

export const campaigns = pgTable('campaigns', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  templateId: bigint('template_id', { mode: 'number' })
    .notNull()
    .references(() => templates.id),
  name: text('name').notNull(),
  sender: text('sender').notNull(),
  scheduledSendDate: moment('scheduled_send_date').notNull(),
  expiryDate: moment('expiry_date').notNull(),
  status: smallint('status').notNull().default(0),
  throttled: boolean('throttled').notNull().default(false),
  scheduledFinishDate: moment('scheduled_finish_date'),
  manuallyPaused: boolean('manually_paused'),
  isTest: boolean('is_test').notNull().default(false),
  startedSendingAt: moment('started_sending_at'),
  finishedSendingAt: moment('finished_sending_at'),
  approvalStatus: text('approval_status', { enum: ['not_required', 'pending', 'approved', 'rejected'] })
    .notNull()
    .default('not_required'),
  approvalRequestedBy: bigint('approval_requested_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  approvalRequestedAt: moment('approval_requested_at'),
  approvalDecidedBy: bigint('approval_decided_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  approvalDecidedAt: moment('approval_decided_at'),
  approvalComment: text('approval_comment'),
  /** The recipients the approval covered (0036), and why a start waits for approval again. */
  approvalRecipients: integer('approval_recipients'),
  approvalNotice: text('approval_notice'),
  createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  isDraft: boolean('is_draft').notNull().default(false),
  ignoreQuietHours: boolean('ignore_quiet_hours').notNull().default(false),
  /** `local_time`: the wall-clock time each recipient's zone reads when its message goes (0050); null otherwise. */
  localSendTime: text('local_send_time'),
  /** Where its audience had been written to when it was stopped (0050): the rest was never written. */
  stoppedAudienceAfter: text('stopped_audience_after'),
  /** A send test: the campaign it tested. */
  testOf: bigint('test_of', { mode: 'number' }).references((): AnyPgColumn => campaigns.id, { onDelete: 'cascade' }),
  resumedAt: moment('resumed_at'),
  expiredAt: moment('expired_at'),
  stoppedAt: moment('stopped_at'),
  stoppedBy: bigint('stopped_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  stopSwept: boolean('stop_swept').notNull().default(false),
  // The engine's place in the audience: messages written (numbered from 1), the next to claim, and
  // where the next chunk of the audience starts (engine.md).
  messageCount: integer('message_count').notNull().default(0),
  nextSequence: integer('next_sequence').notNull().default(1),
  anchorSequence: integer('anchor_sequence').notNull().default(1),
  audienceAfter: text('audience_after'),
  audienceEstimate: integer('audience_estimate'),
  // The counters the summary reads, kept by the engine and the click recorder.
  unsentCount: integer('unsent_count').notNull().default(0),
  submittedCount: integer('submitted_count').notNull().default(0),
  deliveredCount: integer('delivered_count').notNull().default(0),
  failedCount: integer('failed_count').notNull().default(0),
  inDoubtCount: integer('in_doubt_count').notNull().default(0),
  segmentsSubmitted: bigint('segments_submitted', { mode: 'number' }).notNull().default(0),
  clickCount: integer('click_count').notNull().default(0),
  humanClickCount: integer('human_click_count').notNull().default(0),
  humanClickerCount: integer('human_clicker_count').notNull().default(0),
  ...stamps(),
  // A/B tests (0049): the settings, the split's seed, the sending time counted, and the decision.
  abTest: jsonb('ab_test'),
  abSeed: bigint('ab_seed', { mode: 'number' }),
  abWindowMs: bigint('ab_window_ms', { mode: 'number' }).notNull().default(0),
  abWindowAt: moment('ab_window_at'),
  abWinner: smallint('ab_winner'),
  abDecidedBy: text('ab_decided_by', { enum: ['auto', 'manual', 'not_significant'] }),
  abProbability: doublePrecision('ab_probability'),
  abDecidedAt: moment('ab_decided_at'),
  abResults: jsonb('ab_results'),
});

// Teams and access.

/** A single-use link to join a team (only its SHA-256 digest is kept), valid 7 days. */
export const teamInvitations = pgTable('team_invitations', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  role: text('role', { enum: ['admin', 'editor', 'viewer'] }).notNull(),
  tokenHash: bytea('token_hash').notNull().unique(),
  invitedBy: bigint('invited_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  createdAt: moment('created_at').notNull(),
  expiresAt: moment('expires_at').notNull(),
  acceptedAt: moment('accepted_at'),
});

/** A single-use password reset link (digest only), valid an hour. */
export const passwordResets = pgTable('password_resets', {
  id: id(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: bytea('token_hash').notNull().unique(),
  createdAt: moment('created_at').notNull(),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
});

/** Request, report, send-test and sign-in limits: one counter per key and minute, shared by every process. UNLOGGED. */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').notNull(),
    windowStart: moment('window_start').notNull(),
    hits: integer('hits').notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

/** The sign-in throttle: failed sign-ins per e-mail address and client address. */
export const loginFailures = pgTable(
  'login_failures',
  {
    email: text('email').notNull(),
    address: text('address').notNull(),
    failures: integer('failures').notNull(),
    lastFailedAt: moment('last_failed_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.email, table.address] })],
);

/** An Idempotency-Key's first answer, kept 24 hours per caller and replayed (http/idempotency.ts). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: bigint('team_id', { mode: 'number' })
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: bytea('fingerprint').notNull(),
    lockedUntil: moment('locked_until'),
    responseStatus: smallint('response_status'),
    responseHeaders: jsonb('response_headers'),
    responseBody: bytea('response_body'),
    createdAt: moment('created_at').notNull(),
    expiresAt: moment('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.teamId, table.key] })],
);

/** Each team's row count of the resources it lists (a list's `total`), kept by triggers. */
export const teamRowCounts = pgTable(
  'team_row_counts',
  {
    teamId: bigint('team_id', { mode: 'number' }).notNull(),
    resource: text('resource').notNull(),
    rowCount: bigint('row_count', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.teamId, table.resource] })],
);

/** The overview's counts per team and hour, kept by triggers. */
export const teamHourlyCounts = pgTable(
  'team_hourly_counts',
  {
    teamId: bigint('team_id', { mode: 'number' }).notNull(),
    hour: moment('hour').notNull(),
    sent: bigint('sent', { mode: 'number' }).notNull().default(0),
    delivered: bigint('delivered', { mode: 'number' }).notNull().default(0),
    failed: bigint('failed', { mode: 'number' }).notNull().default(0),
    unsent: bigint('unsent', { mode: 'number' }).notNull().default(0),
    segments: bigint('segments', { mode: 'number' }).notNull().default(0),
    humanClicks: bigint('human_clicks', { mode: 'number' }).notNull().default(0),
    humanClickers: bigint('human_clickers', { mode: 'number' }).notNull().default(0),
    inbound: bigint('inbound', { mode: 'number' }).notNull().default(0),
    optOuts: bigint('opt_outs', { mode: 'number' }).notNull().default(0),
    campaignOptOuts: bigint('campaign_opt_outs', { mode: 'number' }).notNull().default(0),
    failovers: bigint('failovers', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.teamId, table.hour] })],
);

/** The audit log: written, never changed (a trigger refuses UPDATE and DELETE). The team is a plain number so no cascade deletes events. */
export const auditEvents = pgTable('audit_events', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' }),
  actorKind: text('actor_kind', { enum: ['user', 'token', 'anonymous'] }).notNull(),
  actorUuid: uuid('actor_uuid'),
  actorName: text('actor_name').notNull(),
  action: text('action').notNull(),
  resourceType: text('resource_type'),
  resourceUuid: uuid('resource_uuid'),
  changes: jsonb('changes'),
  ip: text('ip'),
  createdAt: moment('created_at').notNull(),
});

// E-mail and reports.

/** The outbox of invitations, resets, approval requests and decisions, written in the change's transaction. */
export const accountEmails = pgTable('account_emails', {
  id: id(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: moment('created_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: moment('next_attempt_at').notNull(),
  sentAt: moment('sent_at'),
  givenUpAt: moment('given_up_at'),
  lastError: text('last_error'),
  /** Until when a job runner holds it (set by the claim, cleared by the outcome). */
  leasedUntil: moment('leased_until'),
});

/** A report a user asked to have e-mailed: the CSV job and its signed link. */
export const reportJobs = pgTable('report_jobs', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  campaignId: bigint('campaign_id', { mode: 'number' })
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  type: text('type', { enum: ['clicks', 'delivery', 'alt_delivery', 'recipient', 'sent', 'unsent'] }).notNull(),
  status: text('status', { enum: ['queued', 'writing', 'mailing', 'sent', 'failed'] })
    .notNull()
    .default('queued'),
  email: text('email').notNull(),
  fileName: text('file_name'),
  rowCount: integer('row_count'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
  leaseUntil: moment('lease_until'),
  error: text('error'),
  linkExpiresAt: moment('link_expires_at'),
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
  leaseToken: bigint('lease_token', { mode: 'number' }),
  fileAttempt: bigint('file_attempt', { mode: 'number' }),
  fileBytes: bigint('file_bytes', { mode: 'number' }),
  publicUrl: text('public_url'),
  filters: jsonb('filters').notNull().default({}),
});

/** A report CSV in parts of about a megabyte, under the attempt that wrote them. */
export const reportFileParts = pgTable(
  'report_file_parts',
  {
    jobId: bigint('job_id', { mode: 'number' })
      .notNull()
      .references(() => reportJobs.id, { onDelete: 'cascade' }),
    attempt: bigint('attempt', { mode: 'number' }).notNull(),
    part: integer('part').notNull(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.jobId, table.attempt, table.part] })],
);

/** The call log of keyword webhooks. */
export const webhookAttempts = pgTable('webhook_attempts', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  webhookId: bigint('webhook_id', { mode: 'number' })
    .notNull()
    .references(() => webhooks.id, { onDelete: 'cascade' }),
  inboundMessageId: bigint('inbound_message_id', { mode: 'number' }).references(() => inboundMessages.id, { onDelete: 'set null' }),
  event: text('event').notNull(),
  url: text('url').notNull(),
  statusCode: integer('status_code'),
  latencyMs: integer('latency_ms').notNull(),
  error: text('error'),
  createdAt: moment('created_at').notNull().defaultNow(),
});

// Sending.

/** A team's account at an SMS provider (or an SMPP bind, or the simulator): sealed credentials, senders and pace. */
export const smsConnections = pgTable('sms_connections', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  provider: text('provider').notNull(),
  baseUrl: text('base_url'),
  credentialsEncrypted: bytea('credentials_encrypted').notNull(),
  senders: text('senders')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  maxPerSecond: integer('max_per_second').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: moment('created_at').notNull(),
  updatedAt: moment('updated_at').notNull(),
  pricePerSegment: jsonb('price_per_segment'),
});

/** A team's routes: the ordered rules choosing, by the recipient's country, which connections to try. */
export const smsRoutes = pgTable('sms_routes', {
  teamId: bigint('team_id', { mode: 'number' })
    .primaryKey()
    .references(() => teams.id, { onDelete: 'cascade' }),
  rules: jsonb('rules').notNull(),
  updatedAt: moment('updated_at').notNull(),
});

/** Each connection's pace (`max_per_second`) shared by every sending process: a row per connection and second. */
export const connectionRate = pgTable(
  'connection_rate',
  {
    connectionId: bigint('connection_id', { mode: 'number' })
      .notNull()
      .references(() => smsConnections.id, { onDelete: 'cascade' }),
    second: moment('second').notNull(),
    used: integer('used').notNull(),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.second] })],
);

/** The router's view of each connection, shared by every sending process: circuit breaker, last error, today's counts. */
export const smsConnectionStates = pgTable('sms_connection_states', {
  connectionId: bigint('connection_id', { mode: 'number' })
    .primaryKey()
    .references(() => smsConnections.id, { onDelete: 'cascade' }),
  circuit: text('circuit').notNull().default('closed'),
  openUntil: moment('open_until'),
  lastError: text('last_error'),
  lastErrorAt: moment('last_error_at'),
  day: date('day').notNull(),
  messagesToday: integer('messages_today').notNull().default(0),
  errorsToday: integer('errors_today').notNull().default(0),
  failoversToday: integer('failovers_today').notNull().default(0),
  alertedAt: moment('alerted_at'),
  updatedAt: moment('updated_at').notNull(),
});

// Events.

/** Where a team's events go, with their secrets (sealed) and the failure state. */
export const eventEndpoints = pgTable('event_endpoints', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  events: text('events').array().notNull(),
  headers: jsonb('headers').notNull().default({}),
  enabled: boolean('enabled').notNull().default(true),
  secretEncrypted: bytea('secret_encrypted').notNull(),
  previousSecretEncrypted: bytea('previous_secret_encrypted'),
  previousSecretUntil: moment('previous_secret_until'),
  failingSince: moment('failing_since'),
  disabledReason: text('disabled_reason'),
  createdAt: moment('created_at').notNull(),
  updatedAt: moment('updated_at').notNull(),
});

/** Events committed by triggers with their change and not yet handed to endpoints. */
export const eventOutbox = pgTable('event_outbox', {
  id: id(),
  teamId: bigint('team_id', { mode: 'number' }).notNull(),
  type: text('type').notNull(),
  data: jsonb('data').notNull(),
  occurredAt: moment('occurred_at').notNull().defaultNow(),
});

/** One signed call's worth of events for one endpoint, retried until taken or too old. */
export const eventDeliveries = pgTable('event_deliveries', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  endpointId: bigint('endpoint_id', { mode: 'number' })
    .notNull()
    .references(() => eventEndpoints.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  itemCount: integer('item_count').notNull().default(1),
  status: text('status', { enum: ['pending', 'delivered', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: moment('next_attempt_at').notNull(),
  retryUntil: moment('retry_until').notNull(),
  lastStatusCode: integer('last_status_code'),
  lastError: text('last_error'),
  createdAt: moment('created_at').notNull(),
  finishedAt: moment('finished_at'),
  /** Until when a job runner holds it (set by the claim, cleared by the outcome). */
  leasedUntil: moment('leased_until'),
});

/** Each call of a delivery, with its status and latency. */
export const eventDeliveryAttempts = pgTable('event_delivery_attempts', {
  id: id(),
  deliveryId: bigint('delivery_id', { mode: 'number' })
    .notNull()
    .references(() => eventDeliveries.id, { onDelete: 'cascade' }),
  statusCode: integer('status_code'),
  latencyMs: integer('latency_ms').notNull(),
  error: text('error'),
  createdAt: moment('created_at').notNull(),
});

// Audiences.

/** A CSV or workbook import into a group: streamed into the staging rows, merged in one transaction. */
export const contactImports = pgTable('contact_imports', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  contactGroupId: bigint('contact_group_id', { mode: 'number' })
    .notNull()
    .references(() => contactGroups.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['receiving', 'merging', 'completed', 'failed'] })
    .notNull()
    .default('receiving'),
  fileName: text('file_name'),
  headers: jsonb('headers').notNull().default([]),
  bytesTotal: bigint('bytes_total', { mode: 'number' }),
  bytesReceived: bigint('bytes_received', { mode: 'number' }).notNull().default(0),
  rowsTotal: integer('rows_total').notNull().default(0),
  rowsValid: integer('rows_valid').notNull().default(0),
  rowsInvalid: integer('rows_invalid').notNull().default(0),
  contactsAdded: integer('contacts_added').notNull().default(0),
  contactsUpdated: integer('contacts_updated').notNull().default(0),
  contactsUnchanged: integer('contacts_unchanged').notNull().default(0),
  error: text('error'),
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
  finishedAt: moment('finished_at'),
  contactsOptedOut: integer('contacts_opted_out').notNull().default(0),
  /** Numbers whose consent column said no: suppressed, not imported (0059). */
  contactsSuppressed: integer('contacts_suppressed').notNull().default(0),
});

/** Staging: the valid rows of imports under way. UNLOGGED, with no key: read once by the merge. */
export const contactImportRows = pgTable('contact_import_rows', {
  importId: bigint('import_id', { mode: 'number' }).notNull(),
  rowNumber: integer('row_number').notNull(),
  phoneNumber: text('phone_number').notNull(),
  customFields: jsonb('custom_fields').notNull(),
  /** The row's consent column (0059): null when the file has none. */
  consent: boolean('consent'),
});

/** Rows an import refused, for its report. */
export const contactImportErrors = pgTable(
  'contact_import_errors',
  {
    importId: bigint('import_id', { mode: 'number' })
      .notNull()
      .references(() => contactImports.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    value: text('value').notNull(),
    reason: text('reason').notNull(),
  },
  (table) => [primaryKey({ columns: [table.importId, table.rowNumber] })],
);

// Campaigns.

/** The groups a campaign sends to (included) and skips (excluded), in order. */
export const campaignGroups = pgTable(
  'campaign_groups',
  {
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    contactGroupId: bigint('contact_group_id', { mode: 'number' })
      .notNull()
      .references(() => contactGroups.id),
    kind: text('kind', { enum: ['included', 'excluded'] }).notNull(),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.contactGroupId, table.kind] })],
);

/** A campaign's included and excluded segments (issue 35), in order, like its groups. */
/** A campaign's A/B variants (0049), in order: `position` is what its messages record. */
export const campaignVariants = pgTable(
  'campaign_variants',
  {
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    name: text('name').notNull(),
    templateId: bigint('template_id', { mode: 'number' })
      .notNull()
      .references(() => templates.id),
    sender: text('sender'),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.position] })],
);

export const campaignSegments = pgTable(
  'campaign_segments',
  {
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    segmentId: bigint('segment_id', { mode: 'number' })
      .notNull()
      .references(() => segments.id),
    kind: text('kind', { enum: ['included', 'excluded'] }).notNull(),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.segmentId, table.kind] })],
);

/** The recipients of a campaign with segments, fixed when it started sending (issue 35): numbers only. */
export const campaignAudience = pgTable(
  'campaign_audience',
  {
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    /** The campaign's included segments this number matched when the list was fixed (migration 0052); empty: its groups alone brought it. */
    segmentIds: bigint('segment_ids', { mode: 'number' })
      .array()
      .notNull()
      .default(sql`'{}'`),
  },
  (table) => [primaryKey({ columns: [table.campaignId, table.phoneNumber] })],
);

/** A team's segments: contacts picked by conditions (contract/segments.ts), evaluated live on read. */
export const segments = pgTable('segments', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  match: text('match', { enum: ['all', 'any'] }).notNull(),
  conditions: jsonb('conditions').notNull(),
  createdAt: moment('created_at').notNull(),
  updatedAt: moment('updated_at').notNull(),
});

/** Orders a team reports (once per order_id), each credited to a campaign's click or delivery, or to none. */
export const conversions = pgTable('conversions', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  orderId: text('order_id').notNull(),
  phoneNumber: text('phone_number'),
  clickCode: text('click_code'),
  /** Read as text by node-postgres. */
  value: numeric('value', { precision: 14, scale: 2 }).notNull(),
  currency: text('currency').notNull(),
  occurredAt: moment('occurred_at').notNull(),
  source: text('source', { enum: ['api', 'shopify', 'woocommerce'] }).notNull(),
  campaignId: bigint('campaign_id', { mode: 'number' }).references(() => campaigns.id, { onDelete: 'set null' }),
  messageId: bigint('message_id', { mode: 'number' }),
  attributedBy: text('attributed_by', { enum: ['click', 'view'] }),
  createdAt: moment('created_at').notNull(),
  shopConnectionId: bigint('shop_connection_id', { mode: 'number' }).references((): AnyPgColumn => shopConnections.id, { onDelete: 'set null' }),
});

/** A shop (Shopify, WooCommerce) whose order webhooks record conversions, with its sealed signing secret (0048). */
export const shopConnections = pgTable('shop_connections', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  platform: text('platform', { enum: ['shopify', 'woocommerce'] }).notNull(),
  secretEncrypted: bytea('secret_encrypted').notNull(),
  lastOrderAt: moment('last_order_at'),
  createdAt: moment('created_at').notNull(),
  updatedAt: moment('updated_at').notNull(),
});

/** A throttled campaign's pauses. */
export const campaignPauses = pgTable('campaign_pauses', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  campaignId: bigint('campaign_id', { mode: 'number' })
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  startAt: moment('start_at').notNull(),
  endAt: moment('end_at').notNull(),
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
});

/** The one recipient of a send test. */
export const campaignTestRecipients = pgTable('campaign_test_recipients', {
  campaignId: bigint('campaign_id', { mode: 'number' })
    .primaryKey()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  phoneNumber: text('phone_number').notNull(),
  customFields: jsonb('custom_fields').notNull().default({}),
});

// Sending.

/** One row per recipient of a sending campaign, numbered by `sequence`: the engine's checkpoint. No foreign key (0015). */
export const messages = pgTable('messages', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  campaignId: bigint('campaign_id', { mode: 'number' }).notNull(),
  sequence: integer('sequence').notNull(),
  phoneNumber: text('phone_number').notNull(),
  customFields: jsonb('custom_fields').notNull().default({}),
  status: text('status', { enum: ['queued', 'submitted', 'delivered', 'failed', 'unsent'] })
    .notNull()
    .default('queued'),
  reason: text('reason'),
  body: text('body'),
  gatewayId: text('gateway_id'),
  submittedBy: text('submitted_by'),
  submittedAt: moment('submitted_at'),
  finishedAt: moment('finished_at'),
  createdAt: moment('created_at').notNull().defaultNow(),
  contactGroupId: bigint('contact_group_id', { mode: 'number' }),
  unsentSequence: integer('unsent_sequence'),
  connectionId: bigint('connection_id', { mode: 'number' }),
  variant: smallint('variant'),
});

/** A claimed range of a campaign's messages under a lease and a fencing token. */
export const sendBatches = pgTable('send_batches', {
  id: id(),
  campaignId: bigint('campaign_id', { mode: 'number' })
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  firstSequence: integer('first_sequence').notNull(),
  lastSequence: integer('last_sequence').notNull(),
  owner: text('owner').notNull(),
  leaseUntil: moment('lease_until').notNull(),
  token: bigint('token', { mode: 'number' })
    .notNull()
    .default(sql`nextval('send_batch_tokens')`),
  submitting: boolean('submitting').notNull().default(false),
  heldMessages: integer('held_messages'),
});

/** The gateway-wide rate cap (SMS_RATE_LIMIT): each second's sends granted from one row. */
export const gatewayRate = pgTable('gateway_rate', {
  second: moment('second').primaryKey(),
  used: integer('used').notNull().default(0),
});

/** A receipt that came before the record of its submission, waiting for it. */
export const earlyReceipts = pgTable('early_receipts', {
  gatewayId: text('gateway_id').primaryKey(),
  status: text('status', { enum: ['delivered', 'failed'] }).notNull(),
  reason: text('reason'),
  receivedAt: moment('received_at').notNull(),
});

/** Per-recipient short codes of tracked links: each of one campaign message or one flow message (short_links_one_owner). */
export const shortLinks = pgTable('short_links', {
  code: text('code').primaryKey(),
  messageId: bigint('message_id', { mode: 'number' }).references(() => messages.id, { onDelete: 'cascade' }),
  outboundReplyId: bigint('outbound_reply_id', { mode: 'number' }).references(() => outboundReplies.id, { onDelete: 'cascade' }),
  linkId: bigint('link_id', { mode: 'number' }).references(() => links.id, { onDelete: 'set null' }),
  linkName: text('link_name').notNull(),
  destination: text('destination').notNull(),
  createdAt: moment('created_at').notNull().defaultNow(),
});

/** Clicks on short links, with the device parsed from the user agent. */
export const linkClicks = pgTable('link_clicks', {
  id: id(),
  code: text('code')
    .notNull()
    .references(() => shortLinks.code, { onDelete: 'cascade' }),
  clickedAt: moment('clicked_at').notNull().defaultNow(),
  userAgent: text('user_agent'),
  ip: text('ip'),
  deviceType: text('device_type'),
  osVersion: text('os_version'),
  browserVersion: text('browser_version'),
  isBot: boolean('is_bot').notNull().default(false),
  /** The campaign's, numbered per campaign; both null for a click on a flow message's link. */
  campaignId: bigint('campaign_id', { mode: 'number' }),
  sequence: integer('sequence'),
});

/** Keyword replies waiting for, or handed to, the SMS gateway. */
export const outboundReplies = pgTable('outbound_replies', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  inboundMessageId: bigint('inbound_message_id', { mode: 'number' }).references(() => inboundMessages.id, { onDelete: 'set null' }),
  toNumber: text('to_number').notNull(),
  sender: text('sender').notNull(),
  body: text('body').notNull(),
  status: text('status', { enum: OUTBOUND_MESSAGE_STATUSES }).notNull().default('queued'),
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
  leaseUntil: moment('lease_until'),
  gatewayId: text('gateway_id'),
  reason: text('reason'),
  connectionId: bigint('connection_id', { mode: 'number' }),
  kind: text('kind', { enum: OUTBOUND_MESSAGE_KINDS }).notNull().default('keyword_reply'),
  marketing: boolean('marketing').notNull().default(false),
  authorId: bigint('author_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  /** A flow's message: its run and step, at most one per both (outbound_replies_flow_step_key). */
  flowRunId: bigint('flow_run_id', { mode: 'number' }).references(() => flowRuns.id, { onDelete: 'set null' }),
  flowStepId: text('flow_step_id'),
});

// Inbound.

/** Inbound messages and what the keyword pipeline did with them. */
export const inboundMessages = pgTable('inbound_messages', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' }).references(() => teams.id, { onDelete: 'cascade' }),
  fromNumber: text('from_number').notNull(),
  body: text('body').notNull(),
  source: text('source', { enum: ['gateway', 'api'] }).notNull(),
  keywordId: bigint('keyword_id', { mode: 'number' }).references(() => keywords.id, { onDelete: 'set null' }),
  keyword: text('keyword'),
  optedOut: boolean('opted_out').notNull().default(false),
  actions: jsonb('actions').notNull().default([]),
  receivedAt: moment('received_at').notNull().defaultNow(),
});

/** The gateway's delivery keys of inbound messages, so a redelivery within an hour is stored once. */
export const inboundDeliveries = pgTable('inbound_deliveries', {
  key: text('key').primaryKey(),
  inboundMessageId: bigint('inbound_message_id', { mode: 'number' }).references(() => inboundMessages.id, { onDelete: 'set null' }),
  receivedAt: moment('received_at').notNull(),
});

/** The opt-out history: every entry to and exit from a team's `default_optouts`. */
export const optOutEvents = pgTable('opt_out_events', {
  id: id(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  phoneNumber: text('phone_number').notNull(),
  kind: text('kind', { enum: ['opt_out', 'opt_in'] }).notNull(),
  source: text('source', { enum: ['keyword', 'import', 'dashboard', 'api', 'provider'] }).notNull(),
  campaignId: bigint('campaign_id', { mode: 'number' }).references(() => campaigns.id, { onDelete: 'set null' }),
  userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  reason: text('reason'),
  createdAt: moment('created_at').notNull(),
});

// Consent.

/** Every time a number agreed to a team's marketing, how and with what evidence. */
export const consentRecords = pgTable('consent_records', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  phoneNumber: text('phone_number').notNull(),
  source: text('source', { enum: ['keyword', 'form', 'import', 'api', 'checkout', 'dashboard'] }).notNull(),
  at: moment('at').notNull(),
  textShown: text('text_shown').notNull().default(''),
  evidence: jsonb('evidence').notNull().default({}),
  createdAt: moment('created_at').notNull().defaultNow(),
});

/** Double opt-in: sign-ups waiting for the number's YES. */
export const optInRequests = pgTable('opt_in_requests', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  phoneNumber: text('phone_number').notNull(),
  state: text('state', { enum: ['pending', 'confirmed', 'expired'] })
    .notNull()
    .default('pending'),
  source: text('source', { enum: ['keyword', 'form', 'import', 'api', 'checkout', 'dashboard'] }).notNull(),
  textShown: text('text_shown').notNull().default(''),
  evidence: jsonb('evidence').notNull().default({}),
  keywordId: bigint('keyword_id', { mode: 'number' }).references(() => keywords.id, { onDelete: 'set null' }),
  groupId: bigint('group_id', { mode: 'number' }).references(() => contactGroups.id, { onDelete: 'set null' }),
  fields: jsonb('fields').notNull().default({}),
  requestedAt: moment('requested_at').notNull(),
  expiresAt: moment('expires_at').notNull(),
  decidedAt: moment('decided_at'),
});

/** A team's hosted sign-up page (/join/{slug}): its texts, the group a confirmed number joins. */
export const signupPages = pgTable('signup_pages', {
  id: id(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .unique()
    .references(() => teams.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull().unique(),
  enabled: boolean('enabled').notNull().default(false),
  heading: text('heading').notNull(),
  consentText: text('consent_text').notNull(),
  frequencyText: text('frequency_text').notNull(),
  groupId: bigint('group_id', { mode: 'number' }).references(() => contactGroups.id, { onDelete: 'set null' }),
  askFirstName: boolean('ask_first_name').notNull().default(false),
  ...stamps(),
});

// The inbox.

/** A conversation's state per team and number: status, assignee, snooze, last activity and the team's read marker. */
export const conversations = pgTable('conversations', {
  id: id(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  phoneNumber: text('phone_number').notNull(),
  status: text('status', { enum: ['open', 'closed', 'snoozed'] })
    .notNull()
    .default('open'),
  assigneeId: bigint('assignee_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  snoozedUntil: moment('snoozed_until'),
  lastActivityAt: moment('last_activity_at').notNull(),
  lastInboundAt: moment('last_inbound_at'),
  readAt: moment('read_at'),
  createdAt: moment('created_at').notNull(),
  updatedAt: moment('updated_at').notNull(),
});

/** A team's saved replies for the inbox's composer. */
export const savedReplies = pgTable('saved_replies', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  body: text('body').notNull(),
  createdAt: moment('created_at').notNull(),
  updatedAt: moment('updated_at').notNull(),
});

// Flows.

/** A team's flows: trigger, steps (each with its id), enabled, re-entry, and the sealed secret of its webhook steps. */
export const flows = pgTable('flows', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  trigger: jsonb('trigger').notNull(),
  triggerType: text('trigger_type', { enum: ['keyword', 'group_joined', 'segment_entered', 'conversion', 'anniversary', 'api'] }).notNull(),
  triggerKeywordId: bigint('trigger_keyword_id', { mode: 'number' }).references(() => keywords.id, { onDelete: 'set null' }),
  triggerGroupId: bigint('trigger_group_id', { mode: 'number' }).references(() => contactGroups.id, { onDelete: 'set null' }),
  steps: jsonb('steps').notNull().default([]),
  enabled: boolean('enabled').notNull().default(false),
  reentry: text('reentry', { enum: ['after_end', 'never'] })
    .notNull()
    .default('after_end'),
  secretEncrypted: bytea('secret_encrypted').notNull(),
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
  /** A segment_entered flow: when its segment was last looked at (null: not yet). */
  segmentCheckedAt: moment('segment_checked_at'),
});

/** An anniversary flow's starts: each number once per anniversary date in the number's zone. */
export const flowAnniversaryStarts = pgTable(
  'flow_anniversary_starts',
  {
    flowId: bigint('flow_id', { mode: 'number' })
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    onDate: date('on_date').notNull(),
  },
  (table) => [primaryKey({ columns: [table.flowId, table.phoneNumber, table.onDate] })],
);

/** A segment_entered flow's view of its segment's numbers at its last look. */
export const flowSegmentMembers = pgTable(
  'flow_segment_members',
  {
    flowId: bigint('flow_id', { mode: 'number' })
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
  },
  (table) => [primaryKey({ columns: [table.flowId, table.phoneNumber] })],
);

/** A number's run through a flow: its state, the step it is at and when the advance next takes it. */
export const flowRuns = pgTable('flow_runs', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  flowId: bigint('flow_id', { mode: 'number' })
    .notNull()
    .references(() => flows.id, { onDelete: 'cascade' }),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  phoneNumber: text('phone_number').notNull(),
  fields: jsonb('fields').notNull().default({}),
  trigger: text('trigger').notNull(),
  state: text('state', { enum: ['active', 'completed', 'exited'] })
    .notNull()
    .default('active'),
  exitReason: text('exit_reason'),
  stepId: text('step_id'),
  dueAt: moment('due_at'),
  startedAt: moment('started_at').notNull(),
  endedAt: moment('ended_at'),
  updatedAt: moment('updated_at').notNull().defaultNow(),
  /** A test run (the dashboard's "test with my number"): waits shortened, not counted (migration 0062). */
  test: boolean('test').notNull().default(false),
});

/** A run's history: each step it entered, and what the step did. */
export const flowRunSteps = pgTable(
  'flow_run_steps',
  {
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => flowRuns.id, { onDelete: 'cascade' }),
    stepId: text('step_id').notNull(),
    stepType: text('step_type').notNull(),
    enteredAt: moment('entered_at').notNull(),
    doneAt: moment('done_at'),
    outcome: text('outcome'),
    detail: jsonb('detail'),
  },
  (table) => [primaryKey({ columns: [table.runId, table.stepId] })],
);

/** A webhook step's call: queued with the move past the step, called and retried with backoff until delivered or given up. */
export const flowWebhookCalls = pgTable('flow_webhook_calls', {
  id: id(),
  runId: bigint('run_id', { mode: 'number' })
    .notNull()
    .references(() => flowRuns.id, { onDelete: 'cascade' }),
  stepId: text('step_id').notNull(),
  url: text('url').notNull(),
  payload: jsonb('payload').notNull(),
  state: text('state', { enum: ['pending', 'delivered', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAt: moment('next_at').notNull(),
  lastStatus: integer('last_status'),
  lastError: text('last_error'),
  createdAt: moment('created_at').notNull(),
  updatedAt: moment('updated_at').notNull(),
});

// The simulator gateway's own tables (gateways/sms/).

/** What the simulator "delivered", keyed by client reference. */
export const simulatorDeliveries = pgTable('simulator_deliveries', {
  clientRef: text('client_ref').primaryKey(),
  gatewayId: text('gateway_id').notNull(),
  toNumber: text('to_number').notNull(),
  fromName: text('from_name').notNull(),
  body: text('body').notNull(),
  createdAt: moment('created_at').notNull().defaultNow(),
  submissions: integer('submissions').notNull().default(1),
});

/** The simulator's receipts, kept until the engine has stored them. */
export const simulatorPendingReceipts = pgTable('simulator_pending_receipts', {
  id: bigint('id', { mode: 'number' })
    .primaryKey()
    .default(sql`nextval('simulator_pending_receipts_id_seq')`),
  gatewayIds: text('gateway_ids').array().notNull(),
  failed: boolean('failed').array().notNull(),
  dueAt: moment('due_at').notNull(),
});

/** The simulator's own: the greatest attempt token (its fence) each client reference was asked about under. */
export const simulatorFences = pgTable('simulator_fences', {
  clientRef: text('client_ref').primaryKey(),
  fence: bigint('fence', { mode: 'number' }).notNull(),
});

// Migrations.

/** When each periodic job of the job runner (src/server/jobs/) is next due, across processes. */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: moment('next_run_at').notNull(),
  lastRunAt: moment('last_run_at').notNull(),
});

/** The migrations applied (made by migrate.ts itself, not by a migration). */
export const schemaMigrations = pgTable('schema_migrations', {
  name: text('name').primaryKey(),
  appliedAt: moment('applied_at').notNull().defaultNow(),
});
