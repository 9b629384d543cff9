import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { SEGMENT_SORT, type Condition, type SegmentMatch } from '../../../shared/contract';
import type { Db } from '../../db/client';
import { countOf, orderOf, readPage, teamIdsByUuid, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import { segmentCampaignRevenue } from '../../db/revenue';
import { arrayParam } from '../../db/arrays';
import { containsText } from '../../db/search';
import { segments } from '../../db/schema';
import { formatTimestamp, type Clock } from '../../lib/time';
import {
  audienceNumbersOf,
  audienceRowsOf,
  segmentCountOf,
  segmentGroupsOf,
  segmentReferencesOf,
  segmentRowsOf,
  segmentScopeOf,
  type CampaignAudience,
  type SegmentReferences,
  type SegmentScope,
  type SegmentShape,
  useSegmentSettings,
} from '../../db/segment-sql';

const SegmentRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  name: z.string(),
  description: z.string(),
  match: z.enum(['all', 'any']),
  conditions: z.array(z.unknown()).transform((conditions) => conditions as Condition[]),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
});
export type SegmentRow = z.output<typeof SegmentRowSchema>;
const COLUMNS = sql`s.id::int AS id, s.uuid::text AS uuid, s.team_id::int AS "teamId", s.name, s.description, s.match, s.conditions,
                    s.created_at AS "createdAt", s.updated_at AS "updatedAt"`;

export type SegmentFields = { name: string; description: string; match: SegmentMatch; conditions: Condition[] };

const ContactRowSchema = z.object({ phone_number: z.string(), custom_fields: z.record(z.string(), z.unknown()) });
const InUseRowSchema = z.object({ id: z.number(), name: z.string() });
const NumbersRowSchema = z.object({ numbers: z.array(z.string()) });

export type { SegmentReferences };

/** A team's segments, and their evaluation (segment-sql.ts) over its contacts and messages. */
export function createSegmentsRepository(db: Db, clock: Clock) {
  const order = (sort: string | undefined) =>
    orderOf(
      { sort: SEGMENT_SORT, columns: { created_at: sql`s.created_at`, updated_at: sql`s.updated_at`, name: sql`lower(s.name)` }, tiebreak: sql`s.id` },
      sort,
    );

  return {
    list(teamId: number, window: PageWindow, search?: string): Promise<Page<SegmentRow>> {
      const where = search ? sql`s.team_id = ${teamId} AND ${containsText(sql`s.name`, search)}` : sql`s.team_id = ${teamId}`;
      return readPage({
        rows: rowsOf(
          db,
          SegmentRowSchema,
          sql`SELECT ${COLUMNS} FROM segments s WHERE ${where} ORDER BY ${order(window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM segments s WHERE ${where}`),
      });
    },

    /** The team's segment; in a transaction (`conn`), locked until it ends. */
    find: (teamId: number, uuid: string, conn?: Conn) =>
      firstRowOf(
        conn ?? db,
        SegmentRowSchema,
        sql`SELECT ${COLUMNS} FROM segments s WHERE s.team_id = ${teamId} AND s.uuid = ${uuid}${conn ? sql` FOR UPDATE` : sql``}`,
      ),

    async insert(conn: Conn, teamId: number, fields: SegmentFields): Promise<SegmentRow> {
      const now = clock.now();
      const row = await firstRowOf(
        conn,
        SegmentRowSchema,
        sql`WITH s AS (INSERT INTO segments (team_id, name, description, match, conditions, created_at, updated_at)
                       VALUES (${teamId}, ${fields.name}, ${fields.description}, ${fields.match}, ${JSON.stringify(fields.conditions)}::jsonb, ${now}, ${now}) RETURNING *)
            SELECT ${COLUMNS} FROM s`,
      );
      if (!row) throw new Error('segment insert returned no row');
      return row;
    },

    async update(conn: Conn, id: number, fields: SegmentFields): Promise<SegmentRow> {
      const row = await firstRowOf(
        conn,
        SegmentRowSchema,
        sql`WITH s AS (UPDATE segments SET name = ${fields.name}, description = ${fields.description}, match = ${fields.match},
                              conditions = ${JSON.stringify(fields.conditions)}::jsonb, updated_at = ${clock.now()} WHERE id = ${id} RETURNING *)
            SELECT ${COLUMNS} FROM s`,
      );
      if (!row) throw new Error('segment update returned no row');
      return row;
    },

    /** The campaigns not yet started (status 0, drafts among them) that send to or skip the segment. */
    waitingCampaignsOf: (conn: Conn, id: number) =>
      rowsOf(
        conn,
        InUseRowSchema,
        sql`SELECT k.id::int AS id, k.name FROM campaign_segments cs JOIN campaigns k ON k.id = cs.campaign_id
             WHERE cs.segment_id = ${id} AND k.status = 0 ORDER BY k.id`,
      ),

    /**
     * Deletes the segment. Campaigns that started from it keep their fixed recipients
     * (campaign_audience): their link to it goes with it.
     */
    async delete(conn: Conn, id: number): Promise<void> {
      await conn.execute(sql`DELETE FROM campaign_segments WHERE segment_id = ${id}`);
      await conn.execute(sql`DELETE FROM segments WHERE id = ${id}`);
    },

    /** The team's segment ids by uuid (lower case); another team's and unknown ones are left out. */
    idsByUuid: (teamId: number, uuids: string[]) => teamIdsByUuid(db, segments, teamId, [...new Set(uuids.map((uuid) => uuid.toLowerCase()))]),

    /** The team's groups and campaigns the conditions name (by uuid, lower case). */
    referencesOf: (teamId: number, shape: SegmentShape) => segmentReferencesOf(db, teamId, [shape]),

    /** What evaluating a segment of the team needs (db/segment-sql.ts `segmentScopeOf`), now. */
    scopeOf: (teamId: number, shape: SegmentShape, references: SegmentReferences, zone: string) =>
      segmentScopeOf(db, teamId, [shape], references, zone, clock.now()),

    /** How many numbers the segment has now (in a transaction with the segments' settings). */
    count: (shape: SegmentShape, scope: SegmentScope): Promise<number> =>
      db.transaction(async (tx) => {
        await useSegmentSettings(tx);
        return countOf(tx, segmentCountOf(shape, scope));
      }),

    /** How many numbers a campaign's audience with segments has now (its groups and segments; db/segment-sql.ts). */
    countAudience: (teamId: number, audience: CampaignAudience, zone: string): Promise<number> =>
      db.transaction(async (tx) => {
        await useSegmentSettings(tx);
        const numbers = await audienceNumbersOf(tx, teamId, audience, zone, clock.now());
        return countOf(tx, sql`SELECT count(*)::int AS total FROM (${numbers}) a`);
      }),

    /**
     * A campaign's recipients with segments, for its review: evaluated now, or once started
     * (`fixedCampaignId`) the list fixed then; `rows` with the fields its messages carry.
     */
    async audienceOf(teamId: number, audience: CampaignAudience, zone: string, fixedCampaignId?: number): Promise<{ rows: SQL; numbers: SQL }> {
      const numbers =
        fixedCampaignId === undefined
          ? await db.transaction(async (tx) => {
              // Evaluated once, then passed as a list: the review reads its audience in up to three statements (parts, coverage, zones).
              await useSegmentSettings(tx);
              const live = await audienceNumbersOf(tx, teamId, audience, zone, clock.now());
              const { numbers: list } = await oneRowOf(tx, NumbersRowSchema, sql`SELECT coalesce(array_agg(a.phone_number), '{}') AS numbers FROM (${live}) a`);
              return sql`SELECT unnest(${arrayParam(list)}::text[]) AS phone_number`;
            })
          : sql`SELECT a.phone_number FROM campaign_audience a WHERE a.campaign_id = ${fixedCampaignId}`;
      return { numbers, rows: audienceRowsOf(numbers, audience.includedGroupIds, segmentGroupsOf(teamId)) };
    },

    /** The latest `limit` campaigns that sent to the segment, with its figures in each (db/revenue.ts), in the team's currency. */
    revenue: (teamId: number, segmentId: number, currency: string, limit: number) => segmentCampaignRevenue(db, teamId, segmentId, currency, limit),

    /** A page of the segment's numbers by number, with their merged fields. */
    contacts: (shape: SegmentShape, scope: SegmentScope, window: PageWindow) =>
      readPage({
        rows: rowsOf(
          db,
          ContactRowSchema,
          sql`SELECT s.phone_number, s.custom_fields FROM (${segmentRowsOf(shape, scope)}) s
                                               ORDER BY s.phone_number LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, segmentCountOf(shape, scope)),
      }),
  };
}

/** The calendar day `YYYY-MM-DD` of `moment` in the time zone `zone`. */
export const dayIn = (moment: Date, zone: string): string => formatTimestamp(moment, zone).slice(0, 10);

export type SegmentsRepository = ReturnType<typeof createSegmentsRepository>;
