import { bigint, boolean, customType, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Mirrors db/migrations/*.sql (the SQL files are the source of truth for the database).
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
  ...stamps(),
});

export const users = pgTable('users', {
  id: id(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
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
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
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
  ...stamps(),
});
