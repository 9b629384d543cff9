import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { QuietHours } from '../../shared/schedule/quiet-hours';

// The tables the query builder reads and writes, described as db/migrations/*.sql create them (the
// SQL files are the database's truth; this file covers only what Drizzle queries touch). Raw
// statements do not lean on it: each parses its rows with a zod schema at the repository edge (rows.ts).
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const stamps = () => ({
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
});

export const teams = pgTable('teams', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  name: text('name').notNull(),
  /** Campaigns of at least this many recipients need an admin's approval (0: all; null: none). */
  approvalThreshold: integer('approval_threshold'),
  confirmThreshold: integer('confirm_threshold').notNull().default(1000),
  /** numeric(12, 5): read as text by node-postgres. */
  pricePerSegment: numeric('price_per_segment'),
  currency: text('currency').notNull().default('EUR'),
  /** null: the service's APP_TIMEZONE. */
  timeZone: text('time_zone'),
  quietHours: jsonb('quiet_hours').$type<QuietHours>(),
  /** null: the service's DEFAULT_COUNTRY (0038). */
  defaultCountry: text('default_country'),
  // The texts' defaults are the migration's (0026): an insert leaves these columns out.
  optOutReply: text('opt_out_reply').notNull().default(''),
  optInReply: text('opt_in_reply').notNull().default(''),
  helpReply: text('help_reply').notNull().default(''),
  /** Numbers members may send tests to besides their own (E.164 digits; migration 0036). */
  testNumbers: text('test_numbers')
    .array()
    .notNull()
    .default(sql`'{}'`),
  ...stamps(),
});

export const users = pgTable('users', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Where the member's test sends go by default. */
  phoneNumber: text('phone_number'),
  currentTeamId: bigint('current_team_id', { mode: 'number' }).references(() => teams.id),
  ...stamps(),
});

export const memberships = pgTable(
  'memberships',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    teamId: bigint('team_id', { mode: 'number' })
      .notNull()
      .references(() => teams.id),
    role: text('role', { enum: ['admin', 'editor', 'viewer'] }).notNull(),
    createdAt: moment('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.teamId] })],
);

export const apiTokens = pgTable('api_tokens', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id),
  kind: text('kind', { enum: ['personal', 'session'] }).notNull(),
  /** The team the token acts in, fixed when it is made (a session's moves with its switch-team). */
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
  scope: text('scope', { enum: ['full', 'read_only'] })
    .notNull()
    .default('full'),
  name: text('name').notNull(),
  tokenHash: bytea('token_hash').notNull(),
  hint: text('hint').notNull(),
  expiresAt: moment('expires_at'),
  lastUsedAt: moment('last_used_at'),
  revokedAt: moment('revoked_at'),
  createdAt: moment('created_at').notNull().defaultNow(),
});

export const senders = pgTable('senders', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
  sender: text('sender').notNull(),
  status: text('status').notNull().default('1'),
  ...stamps(),
});

export const contactGroups = pgTable('contact_groups', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
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
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
  /** null: the service's own link domain (PUBLIC_URL/l). */
  domain: text('domain'),
  status: text('status').notNull().default('1'),
  ...stamps(),
});

export const templates = pgTable('templates', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
  name: text('name').notNull(),
  body: text('body').notNull(),
  sender: text('sender').notNull(),
  ...stamps(),
});

export const links = pgTable('links', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
  templateId: bigint('template_id', { mode: 'number' })
    .notNull()
    .references(() => templates.id),
  vanityDomainId: bigint('vanity_domain_id', { mode: 'number' })
    .notNull()
    .references(() => vanityDomains.id),
  name: text('name').notNull(),
  destination: text('destination').notNull(),
  ...stamps(),
});

export const webhooks = pgTable('webhooks', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
  name: text('name').notNull(),
  url: text('url').notNull(),
  headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
  secretEncrypted: bytea('secret_encrypted').notNull(),
  ...stamps(),
});

export const keywords = pgTable('keywords', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
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
      .references(() => keywords.id),
    contactGroupId: bigint('contact_group_id', { mode: 'number' })
      .notNull()
      .references(() => contactGroups.id),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.keywordId, table.contactGroupId] })],
);

export const keywordWebhooks = pgTable(
  'keyword_webhooks',
  {
    keywordId: bigint('keyword_id', { mode: 'number' })
      .notNull()
      .references(() => keywords.id),
    webhookId: bigint('webhook_id', { mode: 'number' })
      .notNull()
      .references(() => webhooks.id),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.keywordId, table.webhookId] })],
);

export const campaigns = pgTable('campaigns', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  teamId: bigint('team_id', { mode: 'number' })
    .notNull()
    .references(() => teams.id),
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
  approvalRequestedBy: bigint('approval_requested_by', { mode: 'number' }).references(() => users.id),
  approvalRequestedAt: moment('approval_requested_at'),
  approvalDecidedBy: bigint('approval_decided_by', { mode: 'number' }).references(() => users.id),
  approvalDecidedAt: moment('approval_decided_at'),
  approvalComment: text('approval_comment'),
  ...stamps(),
});

/** When each periodic job of the job runner (jobs/runner.ts) is next due, across processes (0042). */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: moment('next_run_at').notNull(),
  lastRunAt: moment('last_run_at').notNull(),
});
