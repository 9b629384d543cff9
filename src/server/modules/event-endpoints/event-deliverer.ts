import { TEST_EVENT_TYPE } from '../../../shared/contract';
import type { WebhookCaller } from '../../gateways/webhooks/webhook-caller';
import { openHeaders } from '../../lib/header-secrets';
import type { SecretBox } from '../../lib/secret-box';
import type { Clock } from '../../lib/time';
import type { DueDelivery, EventOutbox } from './event-outbox';

/** The longest wait between two attempts of a delivery. */
const MAX_RETRY_DELAY_MS = 2 * 3_600_000;

/**
 * When a delivery that failed its `attempts`-th attempt is tried again: `baseMs` doubled each time,
 * at most two hours, a tenth either way at random (receivers that failed together are not all called
 * again at once); null once that is past its `retryUntil`.
 */
export function retryAtOf(attempts: number, baseMs: number, now: Date, retryUntil: Date, random = Math.random): Date | null {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS) * (0.9 + 0.2 * random());
  const at = new Date(now.getTime() + delay);
  return at.getTime() > retryUntil.getTime() ? null : at;
}

/**
 * One attempt of a taken delivery: signed with the endpoint's secret (and the one it replaced, during
 * the 24 hours after a rotation), its uuid as `webhook-id`; then recorded. A test is never retried
 * and says nothing about the endpoint's health.
 */
export function createEventDeliverer(deps: { outbox: EventOutbox; caller: WebhookCaller; secrets: SecretBox; clock: Clock; retryBaseMs: number }) {
  return async function attempt(due: DueDelivery): Promise<void> {
    const secrets = [deps.secrets.open(due.secret_encrypted)];
    if (due.previous_secret_encrypted && due.previous_secret_until && due.previous_secret_until > deps.clock.now())
      secrets.push(deps.secrets.open(due.previous_secret_encrypted));
    const outcome = await deps.caller({ url: due.url, headers: openHeaders(deps.secrets, due.headers), secret: secrets, payload: due.payload, id: due.uuid });
    const test = due.type === TEST_EVENT_TYPE;
    const retryAt = outcome.error === null || test ? null : retryAtOf(due.attempts, deps.retryBaseMs, deps.clock.now(), due.retry_until);
    await deps.outbox.record(due, outcome, retryAt, !test);
  };
}
export type EventDeliverer = ReturnType<typeof createEventDeliverer>;
