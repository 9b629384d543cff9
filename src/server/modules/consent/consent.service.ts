import type { ConsentRecord, OptInRequestState } from '../../../shared/contract';
import type { Conn } from '../../db/rows';
import type { Db, Tx } from '../../db/client';
import type { AuthContext } from '../../http/auth';
import { NotFoundError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { ConsentRecordRow, ConsentRepository } from './consent.repository';
import type { OptInRepository, OptInRequestRow } from './opt-in.repository';

/**
 * Consent you can prove (docs/consent.md): a number's consent records and double opt-in requests as
 * the API, the contact page and the export show them, their erasure, and the expiry of requests
 * nobody answered. The writers (keywords, imports, the contact-group API, the sign-up page) record
 * consents through the repositories in their own transactions.
 */
export function createConsentService(deps: {
  db: Db;
  consent: Pick<ConsentRepository, 'recordsOf'>;
  optIns: Pick<OptInRepository, 'requestsOf' | 'holds' | 'erase' | 'expireDue'>;
  /** Whether the team holds anything about the number (the contact directory's rule: a group, a message, an opt-out, a consent). */
  knows: (teamId: number, phoneNumber: string) => Promise<boolean>;
  /** The country the team's national numbers are read in. */
  countryOf: (teamId: number) => Promise<string>;
  clock: Clock;
  config: { appTimezone: string };
}) {
  const time = (moment: Date | null) => formatTimestamp(moment, deps.config.appTimezone);

  const presentRecord = (row: ConsentRecordRow): ConsentRecord => ({
    uuid: row.uuid,
    source: row.source,
    at: time(row.at),
    text_shown: row.textShown,
    evidence: row.evidence,
  });
  const presentRequest = (row: OptInRequestRow): OptInRequestState => ({
    state: row.state,
    source: row.source,
    requested_at: time(row.requestedAt),
    expires_at: time(row.expiresAt),
    decided_at: time(row.decidedAt),
  });

  return {
    /** `GET /contacts/{phone_number}/consent`: 404 like the contact's other routes when the team knows nothing of the number. */
    async recordsOf(auth: AuthContext, input: string): Promise<ConsentRecord[]> {
      const normalized = normalizePhoneNumber(input, await deps.countryOf(auth.teamId));
      if (!normalized.ok || !(await deps.knows(auth.teamId, normalized.number))) throw new NotFoundError();
      return (await deps.consent.recordsOf(deps.db, auth.teamId, normalized.number)).map(presentRecord);
    },

    /** What the contact page and the export show: the records, and every request (the last is the number's state). */
    async ofNumber(conn: Conn, teamId: number, phoneNumber: string) {
      const [records, requests] = await Promise.all([deps.consent.recordsOf(conn, teamId, phoneNumber), deps.optIns.requestsOf(conn, teamId, phoneNumber)]);
      return {
        records: records.map(presentRecord),
        requests: requests.map((row) => ({ ...presentRequest(row), uuid: row.uuid, text_shown: row.textShown, evidence: row.evidence })),
        latest: requests.length === 0 ? null : presentRequest(requests[requests.length - 1]!),
      };
    },

    holds: (conn: Conn, teamId: number, phoneNumber: string) => deps.optIns.holds(conn, teamId, phoneNumber),

    /** Erasure: consent records and requests are deleted in the erasure's transaction (they hold the number and how it was reached). */
    erase: (tx: Tx, teamId: number, phoneNumber: string) => deps.optIns.erase(tx, teamId, phoneNumber),

    /** The job runner's `consent.opt_in_expiry`: pending requests past their 48 hours expire. */
    expireDue: () => deps.optIns.expireDue(deps.clock.now()),
  };
}
export type ConsentService = ReturnType<typeof createConsentService>;
