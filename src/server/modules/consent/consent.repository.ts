import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';

/** Where a number's consent came from (the list; the API shows these names). */
export const CONSENT_SOURCES = ['keyword', 'form', 'import', 'api', 'checkout', 'dashboard'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/**
 * What proves a consent: the inbound message (`inbound_message_uuid`), the form's address and user
 * agent (`ip`, `user_agent`), the import's file and row (`import_uuid`, `file_name`, `row`), the API
 * token (`token_uuid`), the member who recorded it (`user_uuid`). Only the keys that apply are set.
 */
export type ConsentEvidence = Partial<{
  inbound_message_uuid: string;
  ip: string;
  user_agent: string;
  import_uuid: string;
  file_name: string;
  row: number;
  token_uuid: string;
  user_uuid: string;
  order_id: string;
  /** A shop's order (`checkout`): the connection it came through, its platform, and what the order said of the buyer's consent. */
  shop_connection_uuid: string;
  platform: string;
  sms_marketing_consent: Record<string, string | null>;
  page_slug: string;
  /** The keyword a number texted (with `inbound_message_uuid`, the message that texted it). */
  keyword_uuid: string;
  /** Double opt-in: the request the YES confirmed, and the YES itself. */
  opt_in_request_uuid: string;
  confirmation_message_uuid: string;
}>;

const ConsentRecordRowSchema = z.object({
  uuid: z.string(),
  phoneNumber: z.string(),
  source: z.enum(CONSENT_SOURCES),
  at: MomentSchema,
  textShown: z.string(),
  evidence: z.record(z.string(), z.unknown()),
});
export type ConsentRecordRow = z.output<typeof ConsentRecordRowSchema>;

/** How long a double opt-in request waits for the number's YES. */
export const OPT_IN_WINDOW_MS = 48 * 3_600_000;
/** A sign-up repeated within this time renews the request without texting the number again (no one can flood a handset through Herald). */
export const CONFIRMATION_RESEND_MS = 10 * 60_000;

/** The double opt-in's request, sent from the short code. */
export function confirmationText(teamName: string): string {
  return `${teamName}: reply YES to confirm you want our text messages. Msg & data rates may apply; reply STOP to opt out.`;
}

/**
 * Consent records and double opt-in requests: the SQL every writer shares (keywords, the sign-up
 * page, imports, the API, the dashboard). Like every repository it runs in the transaction it is
 * given, so a consent is recorded with the change it justifies or not at all.
 */
export function createConsentRepository() {
  return {
    /** Records one consent (written, never changed). */
    async record(
      tx: Conn,
      consent: { teamId: number; phoneNumber: string; source: ConsentSource; at: Date; textShown: string; evidence: ConsentEvidence },
    ): Promise<string> {
      const row = await firstRowOf(
        tx,
        z.object({ uuid: z.string() }),
        sql`INSERT INTO consent_records (team_id, phone_number, source, at, text_shown, evidence)
            VALUES (${consent.teamId}, ${consent.phoneNumber}, ${consent.source}, ${consent.at}, ${consent.textShown}, ${JSON.stringify(consent.evidence)}::jsonb)
            RETURNING uuid`,
      );
      return row!.uuid;
    },

    /** A number's consent records in a team, oldest first. */
    async recordsOf(conn: Conn, teamId: number, phoneNumber: string): Promise<ConsentRecordRow[]> {
      return rowsOf(
        conn,
        ConsentRecordRowSchema,
        sql`SELECT uuid, phone_number AS "phoneNumber", source, at, text_shown AS "textShown", evidence
              FROM consent_records WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} ORDER BY at, id`,
      );
    },

    /**
     * Opens (or renews) a double opt-in request and queues the request to confirm, unless one was
     * queued to the number in the last CONFIRMATION_RESEND_MS. `keywordId` and `groupId` are what
     * the YES will do. Answers whether a confirmation was queued.
     */
    async requestOptIn(
      tx: Tx,
      request: {
        teamId: number;
        phoneNumber: string;
        source: ConsentSource;
        textShown: string;
        evidence: ConsentEvidence;
        keywordId?: number | null;
        groupId?: number | null;
        fields?: Record<string, string>;
        now: Date;
        sender: string;
        confirmation: string;
        inboundMessageId?: number | null;
      },
    ): Promise<{ uuid: string; queued: boolean }> {
      const expiresAt = new Date(request.now.getTime() + OPT_IN_WINDOW_MS);
      const previous = await firstRowOf(
        tx,
        z.object({ requestedAt: MomentSchema }),
        sql`SELECT requested_at AS "requestedAt" FROM opt_in_requests
             WHERE team_id = ${request.teamId} AND phone_number = ${request.phoneNumber} AND state = 'pending' FOR UPDATE`,
      );
      const row = await firstRowOf(
        tx,
        z.object({ uuid: z.string() }),
        sql`INSERT INTO opt_in_requests (team_id, phone_number, source, text_shown, evidence, keyword_id, group_id, fields, requested_at, expires_at)
            VALUES (${request.teamId}, ${request.phoneNumber}, ${request.source}, ${request.textShown}, ${JSON.stringify(request.evidence)}::jsonb,
                    ${request.keywordId ?? null}, ${request.groupId ?? null}, ${JSON.stringify(request.fields ?? {})}::jsonb, ${request.now}, ${expiresAt})
            ON CONFLICT (team_id, phone_number) WHERE state = 'pending' DO UPDATE
              SET source = excluded.source, text_shown = excluded.text_shown, evidence = excluded.evidence, keyword_id = excluded.keyword_id,
                  group_id = excluded.group_id, fields = excluded.fields, requested_at = excluded.requested_at, expires_at = excluded.expires_at
            RETURNING uuid`,
      );
      const queued = previous === undefined || request.now.getTime() - previous.requestedAt.getTime() >= CONFIRMATION_RESEND_MS;
      if (queued)
        await tx.execute(sql`
          INSERT INTO outbound_replies (team_id, inbound_message_id, to_number, sender, body, kind, created_at, updated_at)
          VALUES (${request.teamId}, ${request.inboundMessageId ?? null}, ${request.phoneNumber}, ${request.sender}, ${request.confirmation}, 'confirmation',
                  ${request.now}, ${request.now})`);
      return { uuid: row!.uuid, queued };
    },
  };
}
export type ConsentRepository = ReturnType<typeof createConsentRepository>;
