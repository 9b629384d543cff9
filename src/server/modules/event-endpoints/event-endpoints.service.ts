import {
  TEST_EVENT_TYPE,
  type EventDelivery,
  type EventDeliveryDetail,
  type EventEndpoint,
  type EventEndpointInput,
  type EventEndpointPatch,
  type EventType,
} from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { Conn } from '../../db/rows';
import { newSigningSecret } from '../../gateways/webhooks/webhook-caller';
import type { AuthContext } from '../../http/auth';
import { NotFoundError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import { headerReaderOf, maskHeaders, openHeaders, sealHeaders, type HeaderReader } from '../../lib/header-secrets';
import type { SecretBox } from '../../lib/secret-box';
import { formatTimestamp } from '../../lib/time';
import type { Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { EventDeliverer } from './event-deliverer';
import type { DeliveryRow, EndpointRow, EventEndpointsRepository } from './event-endpoints.repository';
import { RETRY_FOR_MS, type EventOutbox } from './event-outbox';

/** How long the secret a rotation replaced keeps signing beside the new one. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function createEventEndpointsService(deps: {
  db: Db;
  audit: AuditTrail;
  endpoints: EventEndpointsRepository;
  outbox: EventOutbox;
  deliver: EventDeliverer;
  secrets: SecretBox;
  clock: Clock;
  config: { publicUrl: string; appTimezone: string };
}) {
  const time = (moment: Date | null) => (moment ? formatTimestamp(moment, deps.config.appTimezone) : '');

  /** Header values in full only in the answer that creates them (`plain`); after that masked, by role. */
  const present = (row: EndpointRow, shownTo: HeaderReader | 'plain'): EventEndpoint => ({
    uuid: row.uuid,
    url: row.url,
    description: row.description,
    events: row.events as EventType[],
    headers: shownTo === 'plain' ? openHeaders(deps.secrets, row.headers) : maskHeaders(deps.secrets, row.headers, shownTo),
    enabled: row.enabled,
    failing_since: time(row.failingSince),
    disabled_reason: row.disabledReason,
    links: selfLinks(deps.config.publicUrl, 'event-endpoints', row.uuid),
    created_at: time(row.createdAt),
    updated_at: time(row.updatedAt),
  });

  const presentDelivery = (row: DeliveryRow): EventDelivery => ({
    uuid: row.uuid,
    type: row.type,
    status: row.status,
    item_count: row.itemCount,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    next_attempt_at: row.status === 'pending' ? time(row.nextAttemptAt) : '',
    created_at: time(row.createdAt),
    finished_at: time(row.finishedAt),
  });

  const find = async (auth: AuthContext, uuid: string, conn: Conn = deps.db, lock = false) => {
    const row = await deps.endpoints.find(auth.teamId, uuid, conn, lock);
    if (!row) throw new NotFoundError();
    return row;
  };

  const detail = async (endpoint: EndpointRow, deliveryUuid: string, conn: Conn = deps.db): Promise<EventDeliveryDetail> => {
    const row = await deps.endpoints.findDelivery(endpoint.id, deliveryUuid, conn);
    if (!row) throw new NotFoundError();
    const attempts = await deps.endpoints.attemptsOf(row.id, conn);
    return {
      ...presentDelivery(row),
      payload: row.payload,
      attempt_log: attempts.map((attempt) => ({
        status_code: attempt.statusCode,
        latency_ms: attempt.latencyMs,
        error: attempt.error,
        created_at: time(attempt.createdAt),
      })),
    };
  };

  return {
    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.endpoints.list(auth.teamId, window);
      return { items: rows.map((row) => present(row, headerReaderOf(auth))), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid), headerReaderOf(auth)),

    /** The signing secret is returned this once; it is stored encrypted. */
    async create(auth: AuthContext, input: EventEndpointInput) {
      const secret = newSigningSecret();
      return deps.db.transaction(async (tx) => {
        const row = await deps.endpoints.insert(
          {
            teamId: auth.teamId,
            createdBy: auth.userId,
            ...input,
            headers: sealHeaders(deps.secrets, input.headers),
            secretEncrypted: deps.secrets.seal(secret),
          },
          tx,
        );
        const endpoint = { ...present(row, 'plain'), secret };
        // The secret and the headers are left out of the log (audit-trail.ts).
        await deps.audit.record(tx, auth, { resourceType: 'event_endpoint', resourceUuid: endpoint.uuid, after: endpoint });
        return endpoint;
      });
    },

    /** A partial edit: fields left out keep their values. */
    async update(auth: AuthContext, uuid: string, patch: EventEndpointPatch) {
      const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      return deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        // A masked value sent back as it was read keeps the stored value.
        if (patch.headers !== undefined) changes.headers = sealHeaders(deps.secrets, patch.headers, current.headers);
        const row = await deps.endpoints.update(auth.teamId, uuid, changes, tx);
        if (!row) throw new NotFoundError();
        const endpoint = present(row, headerReaderOf(auth));
        await deps.audit.record(tx, auth, {
          resourceType: 'event_endpoint',
          resourceUuid: uuid,
          before: present(current, headerReaderOf(auth)),
          after: endpoint,
        });
        return endpoint;
      });
    },

    /** A new secret signs from now on; the old one signs beside it for 24 hours, so receivers can switch without losing a call. */
    async rotateSecret(auth: AuthContext, uuid: string) {
      const secret = newSigningSecret();
      return deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        const row = await deps.endpoints.update(
          auth.teamId,
          uuid,
          {
            secretEncrypted: deps.secrets.seal(secret),
            previousSecretEncrypted: current.secretEncrypted,
            previousSecretUntil: new Date(deps.clock.now().getTime() + ROTATION_OVERLAP_MS),
          },
          tx,
        );
        if (!row) throw new NotFoundError();
        const endpoint = { ...present(row, headerReaderOf(auth)), secret };
        // An action, not an edit: the event shows the endpoint it left (the new secret is left out of the log).
        await deps.audit.record(tx, auth, { resourceType: 'event_endpoint', resourceUuid: uuid, after: endpoint, created: true });
        return endpoint;
      });
    },

    async delete(auth: AuthContext, uuid: string) {
      await deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        await deps.endpoints.delete(current.id, tx);
        await deps.audit.record(tx, auth, { resourceType: 'event_endpoint', resourceUuid: uuid, before: present(current, headerReaderOf(auth)) });
      });
    },

    /** An `event_endpoint.test` call, made at once (enabled or not) and never retried; the delivery it made. */
    async sendTest(auth: AuthContext, uuid: string) {
      const endpoint = await find(auth, uuid);
      const deliveryUuid = await deps.outbox.add({
        endpointId: endpoint.id,
        type: TEST_EVENT_TYPE,
        itemCount: 1,
        payload: {
          type: TEST_EVENT_TYPE,
          timestamp: deps.clock.now().toISOString(),
          data: { endpoint: { uuid: endpoint.uuid, url: endpoint.url }, message: 'A test event from Herald.' },
        },
      });
      const [due] = await deps.outbox.claimDue(1, 60_000, deliveryUuid);
      if (due) await deps.deliver(due);
      // The call was made (no transaction undoes it): its event is written with the delivery as it ended, read in the same transaction.
      return deps.db.transaction(async (tx) => {
        const delivery = await detail(endpoint, deliveryUuid, tx);
        await deps.audit.record(tx, auth, { resourceType: 'event_endpoint', resourceUuid: uuid, after: delivery, created: true });
        return delivery;
      });
    },

    async deliveries(auth: AuthContext, uuid: string, window: PageWindow, status?: string) {
      const endpoint = await find(auth, uuid);
      const { rows, total } = await deps.endpoints.listDeliveries(endpoint.id, window, status);
      return { items: rows.map(presentDelivery), total };
    },

    delivery: async (auth: AuthContext, uuid: string, deliveryUuid: string) => detail(await find(auth, uuid), deliveryUuid),

    /** Sends a delivery again (the same body and `webhook-id`), with a fresh 24 hours of retries. */
    async redeliver(auth: AuthContext, uuid: string, deliveryUuid: string) {
      const endpoint = await find(auth, uuid);
      return deps.db.transaction(async (tx) => {
        const row = await deps.endpoints.findDelivery(endpoint.id, deliveryUuid, tx);
        if (!row) throw new NotFoundError();
        const again = await deps.endpoints.redeliver(row.id, new Date(deps.clock.now().getTime() + RETRY_FOR_MS), tx);
        if (!again) throw new NotFoundError();
        const delivery = presentDelivery(again);
        // Recorded as a change of the endpoint (the route's first uuid), showing the delivery sent again.
        await deps.audit.record(tx, auth, { resourceType: 'event_endpoint', resourceUuid: uuid, after: delivery, created: true });
        return delivery;
      });
    },
  };
}
export type EventEndpointsService = ReturnType<typeof createEventEndpointsService>;
