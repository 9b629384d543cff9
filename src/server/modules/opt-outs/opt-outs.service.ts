import type { OptOutEvent } from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp } from '../../lib/time';
import type { OptOutEventRow, OptOutsRepository } from './opt-outs.repository';

/** The team's opt-out history: every number that entered or left default_optouts, how and when. */
export function createOptOutsService(deps: { optOuts: Pick<OptOutsRepository, 'list'>; config: { appTimezone: string; defaultCountry: string } }) {
  const present = (row: OptOutEventRow): OptOutEvent => ({
    phone_number: row.phoneNumber,
    kind: row.kind,
    source: row.source,
    campaign: row.campaignUuid === null ? null : { uuid: row.campaignUuid, name: row.campaignName ?? '' },
    user: row.userUuid === null ? null : { uuid: row.userUuid, name: row.userName ?? '' },
    reason: row.reason,
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
  });

  return {
    async list(auth: AuthContext, phoneNumber: string | undefined, window: PageWindow) {
      let number: string | undefined;
      if (phoneNumber !== undefined) {
        const normalized = normalizePhoneNumber(phoneNumber, deps.config.defaultCountry);
        if (!normalized.ok) throw ValidationError.field('phone_number', `The phone number ${JSON.stringify(phoneNumber)} ${normalized.reason}.`);
        number = normalized.number;
      }
      const { rows, total } = await deps.optOuts.list(auth.teamId, number, window);
      return { items: rows.map(present), total };
    },
  };
}
export type OptOutsService = ReturnType<typeof createOptOutsService>;
