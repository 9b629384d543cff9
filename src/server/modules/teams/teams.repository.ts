import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { rowsOf, type Conn } from '../../db/rows';
import { memberships, senders, teams, vanityDomains } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';
import type { QuietHours } from '../../../shared/schedule/quiet-hours';

export type TeamRow = typeof teams.$inferSelect;
export type TeamSettingsRecord = {
  name: string;
  approvalThreshold: number | null;
  confirmThreshold: number;
  pricePerSegment: number | null;
  currency: string;
  /** null: the service's APP_TIMEZONE. */
  timeZone: string | null;
  quietHours: QuietHours | null;
  /** null: the service's DEFAULT_COUNTRY. */
  defaultCountry: string | null;
  optOutReply: string;
  optInReply: string;
  helpReply: string;
  /** Numbers anyone of the team may send tests to, besides the members' own. */
  testNumbers: string[];
  /** The attribution windows of conversions; 0: off. */
  clickWindowDays: number;
  viewWindowHours: number;
  /** The frequency cap: both null when off, both set when on (docs/engine.md, frequency caps). */
  frequencyCapMessages: number | null;
  frequencyCapDays: number | null;
  /** A keyword sign-up waits for the number's YES (docs/consent.md). */
  doubleOptIn: boolean;
};
import type { Role } from '../../../shared/contract';

export type { Role };

export function createTeamsRepository(db: Db, clock: Clock) {
  return {
    async findByName(name: string, tx: Tx | Db = db): Promise<TeamRow | undefined> {
      const [team] = await tx
        .select()
        .from(teams)
        .where(sql`lower(${teams.name}) = lower(${name})`);
      return team;
    },

    async findByUuid(uuid: string, tx: Tx | Db = db): Promise<TeamRow | undefined> {
      const [team] = await tx.select().from(teams).where(eq(teams.uuid, uuid));
      return team;
    },

    /** A team with what every team has from birth: its default senders and the service's link domain (its suppression list is the suppressions module's). */
    async insertWithDefaults(tx: Tx, name: string, defaultSenders: string[]): Promise<TeamRow> {
      const stamps = stampsOf(clock);
      const [team] = await tx
        .insert(teams)
        .values({ name, ...stamps })
        .returning();
      if (!team) throw new Error('team insert returned no row');
      if (defaultSenders.length > 0) {
        await tx.insert(senders).values(defaultSenders.map((sender) => ({ teamId: team.id, sender, ...stamps })));
      }
      await tx.insert(vanityDomains).values({ teamId: team.id, domain: null, ...stamps });
      return team;
    },

    async addMember(tx: Tx | Db, teamId: number, userId: number, role: Role): Promise<void> {
      await tx
        .insert(memberships)
        .values({ teamId, userId, role })
        .onConflictDoUpdate({
          target: [memberships.userId, memberships.teamId],
          set: { role },
        });
    },

    /** The team's settings (the team of an authenticated caller exists); `lock`: held until `conn`'s transaction ends. */
    async settingsOf(teamId: number, conn: Conn = db, lock = false): Promise<TeamSettingsRecord> {
      const query = conn
        .select({
          name: teams.name,
          approvalThreshold: teams.approvalThreshold,
          confirmThreshold: teams.confirmThreshold,
          pricePerSegment: teams.pricePerSegment,
          currency: teams.currency,
          timeZone: teams.timeZone,
          quietHours: teams.quietHours,
          defaultCountry: teams.defaultCountry,
          optOutReply: teams.optOutReply,
          optInReply: teams.optInReply,
          helpReply: teams.helpReply,
          testNumbers: teams.testNumbers,
          clickWindowDays: teams.clickWindowDays,
          viewWindowHours: teams.viewWindowHours,
          frequencyCapMessages: teams.frequencyCapMessages,
          frequencyCapDays: teams.frequencyCapDays,
          doubleOptIn: teams.doubleOptIn,
        })
        .from(teams)
        .where(eq(teams.id, teamId));
      const [team] = lock ? await query.for('update') : await query;
      if (!team) throw new Error(`team ${teamId} not found`);
      return { ...team, pricePerSegment: team.pricePerSegment === null ? null : Number(team.pricePerSegment) };
    },

    /** The country the team's national numbers are read in; null: the service's DEFAULT_COUNTRY. */
    async defaultCountryOf(teamId: number): Promise<string | null> {
      const [team] = await db.select({ defaultCountry: teams.defaultCountry }).from(teams).where(eq(teams.id, teamId));
      return team?.defaultCountry ?? null;
    },

    /** Changes the settings the caller gives (a field left out keeps its value). */
    async updateSettings(teamId: number, settings: Partial<TeamSettingsRecord>, conn: Conn = db): Promise<void> {
      const { pricePerSegment, ...rest } = settings;
      await conn
        .update(teams)
        .set({
          ...rest,
          ...(pricePerSegment === undefined ? {} : { pricePerSegment: pricePerSegment === null ? null : String(pricePerSegment) }),
          updatedAt: clock.now(),
        })
        .where(eq(teams.id, teamId));
    },

    /** Where a member who is not an admin may send tests: the members' own numbers and the team's test numbers. */
    async testNumbersOf(teamId: number): Promise<Set<string>> {
      const rows = await rowsOf(
        db,
        z.object({ number: z.string() }),
        sql`
        SELECT u.phone_number AS number FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.team_id = ${teamId} AND u.phone_number IS NOT NULL
        UNION SELECT unnest(test_numbers) FROM teams WHERE id = ${teamId}`,
      );
      return new Set(rows.map((row) => row.number));
    },

    async isMember(userId: number, teamId: number): Promise<boolean> {
      const rows = await db
        .select({ teamId: memberships.teamId })
        .from(memberships)
        .where(and(eq(memberships.userId, userId), eq(memberships.teamId, teamId)));
      return rows.length > 0;
    },

    async teamsOf(userId: number, conn: Conn = db): Promise<Array<{ id: number; uuid: string; name: string; role: Role }>> {
      return conn
        .select({ id: teams.id, uuid: teams.uuid, name: teams.name, role: memberships.role })
        .from(memberships)
        .innerJoin(teams, eq(teams.id, memberships.teamId))
        .where(eq(memberships.userId, userId))
        .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
    },
  };
}
export type TeamsRepository = ReturnType<typeof createTeamsRepository>;
