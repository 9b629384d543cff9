import type { Segment, SegmentContact, SegmentCountInput, SegmentInput, SegmentRevenue } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import { countryOfNumber } from '../../gateways/sms/routing/route-rules';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { formatTimestamp } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import { leavesWithPaths, type SegmentScope, type SegmentShape } from '../../db/segment-sql';
import type { TeamsRepository } from '../teams/teams.repository';
import type { SegmentReferences, SegmentRow, SegmentsRepository } from './segments.repository';

/** How many campaigns a segment's revenue shows (the latest). */
const REVENUE_CAMPAIGNS = 20;

/**
 * Segments (issue 35): a team's saved conditions, and their numbers counted and listed live on every
 * read (segment-sql.ts compiles them; docs/segments.md).
 */
export function createSegmentsService(deps: {
  db: Db;
  audit: Pick<AuditTrail, 'record'>;
  segments: SegmentsRepository;
  /** The team's currency, that of the revenue figures. */
  teams: Pick<TeamsRepository, 'settingsOf'>;
  config: { publicUrl: string; appTimezone: string };
}) {
  const zone = deps.config.appTimezone;

  const present = (row: SegmentRow): Segment => ({
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    match: row.match,
    conditions: row.conditions,
    created_at: formatTimestamp(row.createdAt, zone),
    updated_at: formatTimestamp(row.updatedAt, zone),
    links: selfLinks(deps.config.publicUrl, 'segments', row.uuid),
  });

  const find = async (auth: AuthContext, uuid: string) => {
    const row = await deps.segments.find(auth.teamId, uuid);
    if (!row) throw new NotFoundError();
    return row;
  };

  /**
   * The groups and campaigns the conditions name, each the team's: another team's (or an unknown)
   * uuid is a 422 naming the condition's field (`conditions.1.conditions.0.group_uuid`).
   */
  const referencesOf = async (auth: AuthContext, shape: SegmentShape): Promise<SegmentReferences> => {
    const references = await deps.segments.referencesOf(auth.teamId, shape);
    const errors: Record<string, string[]> = {};
    for (const { leaf, path } of leavesWithPaths(shape)) {
      if (leaf.type === 'group' && !references.groups.has(leaf.group_uuid.toLowerCase()))
        errors[`${path}.group_uuid`] = ['The selected group uuid is invalid.'];
      if (leaf.type === 'event' && leaf.campaign_uuid !== undefined && !references.campaigns.has(leaf.campaign_uuid.toLowerCase()))
        errors[`${path}.campaign_uuid`] = ['The selected campaign uuid is invalid.'];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return references;
  };

  const scopeOf = async (auth: AuthContext, shape: SegmentShape): Promise<SegmentScope> =>
    deps.segments.scopeOf(auth.teamId, shape, await referencesOf(auth, shape), zone);

  const fieldsOf = (input: SegmentInput) => ({
    name: input.name,
    description: input.description ?? '',
    match: input.match,
    conditions: input.conditions,
  });

  return {
    async list(auth: AuthContext, window: PageWindow, search?: string) {
      const { rows, total } = await deps.segments.list(auth.teamId, window, search);
      return { items: rows.map(present), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    async create(auth: AuthContext, input: SegmentInput): Promise<Segment> {
      await referencesOf(auth, input);
      return deps.db.transaction(async (tx) => {
        const created = present(await deps.segments.insert(tx, auth.teamId, fieldsOf(input)));
        await deps.audit.record(tx, auth, { resourceType: 'segment', resourceUuid: created.uuid, after: created });
        return created;
      });
    },

    async update(auth: AuthContext, uuid: string, input: SegmentInput): Promise<Segment> {
      await find(auth, uuid);
      await referencesOf(auth, input);
      return deps.db.transaction(async (tx) => {
        const current = await deps.segments.find(auth.teamId, uuid, tx);
        if (!current) throw new NotFoundError();
        const updated = present(await deps.segments.update(tx, current.id, fieldsOf(input)));
        await deps.audit.record(tx, auth, { resourceType: 'segment', resourceUuid: uuid, before: present(current), after: updated });
        return updated;
      });
    },

    /** Refused with 409 while a campaign that has not started sends to it or skips it. */
    async delete(auth: AuthContext, uuid: string): Promise<void> {
      await find(auth, uuid);
      await deps.db.transaction(async (tx) => {
        const current = await deps.segments.find(auth.teamId, uuid, tx);
        if (!current) throw new NotFoundError();
        const waiting = await deps.segments.waitingCampaignsOf(tx, current.id);
        if (waiting.length > 0)
          throw new ConflictError(
            `The segment is used by ${waiting.length} campaign${waiting.length === 1 ? '' : 's'} not yet started (${waiting
              .slice(0, 3)
              .map((campaign) => campaign.name)
              .join(', ')}${waiting.length > 3 ? ', …' : ''}); it cannot be deleted.`,
          );
        await deps.segments.delete(tx, current.id);
        await deps.audit.record(tx, auth, { resourceType: 'segment', resourceUuid: uuid, before: present(current) });
      });
    },

    /** How many of the team's numbers the saved segment has now. */
    async count(auth: AuthContext, uuid: string): Promise<{ count: number }> {
      const row = await find(auth, uuid);
      return { count: await deps.segments.count(row, await scopeOf(auth, row)) };
    },

    /**
     * The campaigns that sent to the segment, newest first, with the figures of the recipients it
     * brought each (recorded at their start; docs/conversions.md, revenue per segment).
     */
    async revenue(auth: AuthContext, uuid: string): Promise<SegmentRevenue> {
      const row = await find(auth, uuid);
      const { currency } = await deps.teams.settingsOf(auth.teamId);
      const { campaigns, more } = await deps.segments.revenue(auth.teamId, row.id, currency, REVENUE_CAMPAIGNS);
      return {
        currency,
        campaigns: campaigns.map(({ campaign, ...figures }) => ({
          campaign_uuid: campaign.uuid,
          name: campaign.name,
          started_at: formatTimestamp(campaign.startedAt, zone),
          ...figures,
        })),
        more,
      };
    },

    /** How many numbers a segment not yet saved would have (the builder's live count). */
    async countUnsaved(auth: AuthContext, input: SegmentCountInput): Promise<{ count: number }> {
      const shape = { match: input.match, conditions: input.conditions };
      return { count: await deps.segments.count(shape, await scopeOf(auth, shape)) };
    },

    /** A page of the segment's numbers, by number, each with its merged fields and its country. */
    async contacts(auth: AuthContext, uuid: string, window: PageWindow): Promise<{ items: SegmentContact[]; total: number }> {
      const row = await find(auth, uuid);
      const { rows, total } = await deps.segments.contacts(row, await scopeOf(auth, row), window);
      const items = rows.map((contact) => ({
        phone_number: contact.phone_number,
        custom_fields: Object.fromEntries(Object.entries(contact.custom_fields).map(([name, value]) => [name, value == null ? '' : String(value)])),
        country: countryOfNumber(contact.phone_number),
      }));
      return { items, total };
    },

    /** The team's segment ids by uuid (another team's and unknown ones left out): campaigns name segments by uuid. */
    idsByUuid: (teamId: number, uuids: string[]) => deps.segments.idsByUuid(teamId, uuids),
  };
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;
