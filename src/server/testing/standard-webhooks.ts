import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { ReceivedCall } from './webhook-receiver';

/**
 * The body of a call as the reference Standard Webhooks library reads it: it throws unless a
 * signature in `webhook-signature` is the secret's over `webhook-id`, `webhook-timestamp` and the
 * body. The library also refuses a timestamp five minutes from its clock; tests on a clock of their
 * own are checked at the call's own time, so only the signature decides.
 */
export function verifiedBody(secret: string, call: ReceivedCall): unknown {
  const at = Number(call.headers['webhook-timestamp']) * 1000;
  const clock = vi.spyOn(Date, 'now').mockReturnValue(Number.isFinite(at) ? at : 0);
  try {
    return new Webhook(secret).verify(call.body, call.headers as Record<string, string>);
  } finally {
    clock.mockRestore();
  }
}
