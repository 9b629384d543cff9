import { sql } from 'drizzle-orm';
import { providerIdOf } from '../gateways/sms/routing/provider-ids';

/**
 * The SMS connection that carried a message, as the reports and the contact page show it (issue 34).
 * The columns are read from `messages m LEFT JOIN sms_connections sc ON sc.id = m.connection_id`:
 * read only, and left, since `messages.connection_id` has no foreign key (a deleted connection
 * leaves its messages, naming none).
 */
export const MESSAGE_CONNECTION_COLUMNS = sql`m.connection_id IS NOT NULL AS routed, sc.uuid::text AS connection_uuid, sc.name AS connection_name,
  sc.provider AS connection_provider, CASE WHEN m.connection_id IS NOT NULL THEN m.gateway_id END AS gateway_id`;

export type MessageConnectionRow = {
  routed: boolean;
  connection_uuid: string | null;
  connection_name: string | null;
  connection_provider: string | null;
  gateway_id: string | null;
};

/**
 * `connection` and `provider_message_id` (the provider's own id, out of the gateway id
 * `c<connection>:<provider id>`) for a message one of the team's connections carried; nothing for
 * one through the installation's gateway, whose answers stay as they were.
 */
export function carriedBy(m: MessageConnectionRow) {
  if (!m.routed) return {};
  return {
    connection: m.connection_uuid === null ? null : { uuid: m.connection_uuid, name: m.connection_name ?? '', provider: m.connection_provider ?? '' },
    provider_message_id: m.gateway_id === null ? null : providerIdOf(m.gateway_id),
  };
}
