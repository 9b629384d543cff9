import { TEST_EVENT_TYPE } from '../../../shared/contract';
import type { WebhookCaller } from '../../gateways/webhooks/webhook-caller';
import { openHeaders } from '../../lib/header-secrets';
import type { SecretBox } from '../../lib/secret-box';
import type { Clock } from '../../lib/time';
import { retryAt as retryAtOf, type RetryPolicy } from '../../jobs/retry-policy';
import type { DueDelivery, EventOutbox } from './event-outbox';

/**
 * When a failed delivery is tried again (jobs/retry-policy.ts): EVENT_RETRY_MS doubled each time, at
 * most two hours, up to a tenth sooner at random; given up once that is past its `retry_until` (24 hours).
 */
const eventRetryPolicy = (baseMs: number): RetryPolicy => ({ baseMs, capMs: 2 * 3_600_000 });

/**
 * One attempt of a taken delivery: signed with the endpoint's secret (and the one it replaced, during
 * the 24 hours after a rotation), its uuid as `webhook-id`; then recorded. A test is never retried
 * and says nothing about the endpoint's health.
 */
export function createEventDeliverer(deps: { outbox: EventOutbox; caller: WebhookCaller; secrets: SecretBox; clock: Clock; retryBaseMs: number }) {
  const policy = eventRetryPolicy(deps.retryBaseMs);
  return async function attempt(due: DueDelivery): Promise<void> {
    const secrets = [deps.secrets.open(due.secret_encrypted)];
    if (due.previous_secret_encrypted && due.previous_secret_until && due.previous_secret_until > deps.clock.now())
      secrets.push(deps.secrets.open(due.previous_secret_encrypted));
    const outcome = await deps.caller({ url: due.url, headers: openHeaders(deps.secrets, due.headers), secret: secrets, payload: due.payload, id: due.uuid });
    const test = due.type === TEST_EVENT_TYPE;
    const retryAt = outcome.error === null || test ? null : retryAtOf(due.attempts, policy, deps.clock.now(), { until: due.retry_until });
    await deps.outbox.record(due, outcome, retryAt, !test);
  };
}
export type EventDeliverer = ReturnType<typeof createEventDeliverer>;
