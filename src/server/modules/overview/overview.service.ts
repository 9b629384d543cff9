import { OVERVIEW_MAX_DAYS, type Overview, type OverviewQuery } from '../../../shared/contract';
import type { AuthContext } from '../../http/auth';
import { revenueFigures } from '../../db/revenue';
import { ValidationError } from '../../lib/errors';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { OverviewRepository, Period } from './overview.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The period when none is asked for: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** How the team's messaging is doing over a period of days, and what is under way (the dashboard's home page). */
export function createOverviewService(deps: { overview: OverviewRepository; clock: Clock; config: { appTimezone: string } }) {
  const zone = deps.config.appTimezone;
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(deps.clock.now());
  const time = (moment: Date | null) => formatTimestamp(moment, zone);

  /** The period asked for, checked: `to` defaults to today, `from` to 29 days before `to`. */
  const periodOf = (query: OverviewQuery): Period => {
    const to = query.to ?? today();
    const from = query.from ?? addDays(to, 1 - DEFAULT_DAYS);
    if (daysBetween(from, to) < 0) throw ValidationError.field('from', 'The period must start on or before its last day (`to`).');
    if (daysBetween(from, to) >= OVERVIEW_MAX_DAYS) throw ValidationError.field('from', `The period may be at most ${OVERVIEW_MAX_DAYS} days long.`);
    return { from, to, zone };
  };

  return {
    async show(auth: AuthContext, query: OverviewQuery): Promise<Overview> {
      const period = periodOf(query);
      const [days, price, sending, scheduled, approvals, imports, jobs, hasConnections, revenue] = await Promise.all([
        deps.overview.days(auth.teamId, period),
        deps.overview.price(auth.teamId),
        deps.overview.sending(auth.teamId),
        deps.overview.scheduled(auth.teamId),
        deps.overview.awaitingApproval(auth.teamId),
        deps.overview.recentImports(auth.teamId),
        deps.overview.recentReportJobs(auth.teamId, auth.userId),
        deps.overview.hasConnections(auth.teamId),
        deps.overview.revenue(auth.teamId, period),
      ]);
      const sum = (key: Exclude<keyof (typeof days)[number], 'day'>) => days.reduce((total, day) => total + day[key], 0);
      const sent = sum('sent');
      const delivered = sum('delivered');
      const parts = sum('segments');
      const uniqueHumanClicks = sum('human_clickers');
      const failovers = sum('failovers');
      return {
        from: period.from,
        to: period.to,
        time_zone: zone,
        totals: {
          sent,
          delivered,
          delivered_rate: ratio(delivered, sent),
          failed: sum('failed'),
          unsent: sum('unsent'),
          human_clicks: sum('human_clicks'),
          unique_human_clicks: uniqueHumanClicks,
          click_rate: ratio(uniqueHumanClicks, delivered),
          opt_outs: sum('opt_outs'),
          campaign_opt_outs: sum('campaign_opt_outs'),
          opt_out_rate: ratio(sum('campaign_opt_outs'), delivered),
          inbound_messages: sum('inbound'),
          sms_parts: parts,
          // Rounded to the cent: an estimate, not an invoice.
          estimated_cost: price.price === null ? null : Math.round(parts * Number(price.price) * 100) / 100,
          currency: price.currency,
          // Only for a team that sends through its own connections (or did in the period).
          ...(hasConnections || failovers > 0 ? { failovers } : {}),
          // Only for a team that reports orders (docs/conversions.md): in its currency, the others apart.
          ...(revenue ? revenueFigures(revenue, price.currency) : {}),
        },
        days: days.map((day) => ({ date: day.day, sent: day.sent, delivered: day.delivered, failed: day.failed })),
        sending_now: sending.map((campaign) => ({
          uuid: campaign.uuid,
          name: campaign.name,
          recipients: campaign.recipients,
          processed: campaign.processed,
          delivered: campaign.delivered,
          percent: campaign.recipients > 0 ? Math.min(100, Math.floor((100 * campaign.processed) / campaign.recipients)) : 0,
          started_at: time(campaign.startedAt),
          paused: campaign.paused,
        })),
        scheduled: scheduled.map((campaign) => ({ uuid: campaign.uuid, name: campaign.name, send_at: time(campaign.sendAt), recipients: campaign.recipients })),
        awaiting_approval: approvals.map((campaign) => ({
          uuid: campaign.uuid,
          name: campaign.name,
          send_at: time(campaign.sendAt),
          requested_at: time(campaign.requestedAt),
          requested_by: campaign.requestedBy,
        })),
        recent_imports: imports.map((row) => ({
          uuid: row.uuid,
          contact_group_uuid: row.groupUuid,
          contact_group_name: row.groupName,
          file_name: row.fileName,
          status: row.status,
          rows_total: row.rowsTotal,
          contacts_added: row.contactsAdded,
          created_at: time(row.createdAt),
        })),
        recent_report_jobs: jobs.map((job) => ({
          uuid: job.uuid,
          campaign_uuid: job.campaignUuid,
          campaign_name: job.campaignName,
          type: job.type,
          status: job.status,
          created_at: time(job.createdAt),
        })),
      };
    },
  };
}
export type OverviewService = ReturnType<typeof createOverviewService>;
