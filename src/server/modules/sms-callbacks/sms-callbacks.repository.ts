import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { firstRowOf, rowsOf } from '../../db/rows';

const CallbackConnectionRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  provider: z.string(),
  baseUrl: z.string().nullable(),
  credentialsEncrypted: z.instanceof(Buffer),
});
export type CallbackConnectionRow = z.output<typeof CallbackConnectionRowSchema>;

const NamedRowSchema = z.object({ gatewayId: z.string(), phoneNumber: z.string().nullable() });
const ByClientRefRowSchema = z.object({ clientRef: z.string(), gatewayId: z.string(), phoneNumber: z.string() });

/** What a provider's callback needs to read: the connection it arrived at, and the messages it names. */
export function createSmsCallbacksRepository(db: Db) {
  return {
    /** The connection by its uuid alone: a callback comes from the provider, with no team to scope it by (its signature is checked instead). */
    findConnection: (uuid: string) =>
      firstRowOf(
        db,
        CallbackConnectionRowSchema,
        sql`SELECT c.id::int AS id, c.uuid, c.team_id::int AS "teamId", c.provider, c.base_url AS "baseUrl", c.credentials_encrypted AS "credentialsEncrypted"
              FROM sms_connections c WHERE c.uuid = ${uuid}`,
      ),

    /**
     * Which of these gateway ids Herald holds: a campaign message's (with its number, whatever its
     * status) or a keyword reply's (no number: a reply's receipt changes nothing). Both through
     * their gateway-id indexes.
     */
    named: (gatewayIds: string[]) =>
      rowsOf(
        db,
        NamedRowSchema,
        sql`SELECT m.gateway_id AS "gatewayId", m.phone_number AS "phoneNumber" FROM messages m
             WHERE m.gateway_id = ANY(${arrayParam(gatewayIds)}::text[])
            UNION ALL
            SELECT r.gateway_id, NULL FROM outbound_replies r WHERE r.gateway_id = ANY(${arrayParam(gatewayIds)}::text[])`,
      ),

    /**
     * The connection's messages still on their way whose uuid is one of `clientRefs` (a receipt
     * for a part of a long message whose own id Herald never kept, found by the reference it
     * carries back). Only the connection's submitted messages are looked at, through their partial
     * index: messages has no index by uuid, and only a submitted message can still be settled.
     */
    submittedByClientRef: (connectionId: number, clientRefs: string[]) =>
      rowsOf(
        db,
        ByClientRefRowSchema,
        sql`SELECT m.uuid::text AS "clientRef", m.gateway_id AS "gatewayId", m.phone_number AS "phoneNumber" FROM messages m
             WHERE m.connection_id = ${connectionId} AND m.status = 'submitted' AND m.gateway_id IS NOT NULL
               AND m.uuid = ANY(${arrayParam(clientRefs)}::uuid[])`,
      ),
  };
}
export type SmsCallbacksRepository = ReturnType<typeof createSmsCallbacksRepository>;
