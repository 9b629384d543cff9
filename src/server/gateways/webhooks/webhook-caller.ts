import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from '../../lib/private-addresses';

/**
 * A call: `secret` signs it (several, during a rotation, each add a signature); `id` is its
 * `webhook-id`, the same on every attempt of one delivery (a fresh one when left out).
 */
export type WebhookCall = { url: string; headers: Record<string, string>; secret: string | string[]; payload: unknown; id?: string };
export type WebhookOutcome = { statusCode: number | null; latencyMs: number; error: string | null };
export type WebhookCaller = (call: WebhookCall) => Promise<WebhookOutcome>;

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Standard Webhooks signature: HMAC-SHA256 over `id.timestamp.body` with the secret's bytes; with
 * several secrets, one signature each, separated by spaces (the receiver accepts any it knows).
 */
export function signWebhook(secret: string | string[], id: string, timestamp: number, body: string): string {
  return (Array.isArray(secret) ? secret : [secret])
    .map((one) => {
      const key = Buffer.from(one.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

class RefusedTarget extends Error {}

/** The address to connect to: resolved once and checked, then pinned (no DNS rebinding between check and call). */
async function resolveTarget(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new RefusedTarget(`${hostname} does not resolve.`);
  if (!allowPrivate) {
    const forbidden = addresses.find((entry) => isPrivateAddress(entry.address));
    if (forbidden) throw new RefusedTarget(`${hostname} resolves to a private address (${forbidden.address}); calls to private networks are refused.`);
  }
  return addresses[0]!;
}

/**
 * POSTs the payload as JSON with the stored headers and Standard Webhooks headers. One attempt:
 * no retry, redirects are not followed (a 3xx is the answer), `timeoutMs` for the whole call.
 */
export function createWebhookCaller(options: { allowPrivate: boolean; timeoutMs: number; now?: () => Date }): WebhookCaller {
  return async (call) => {
    const started = performance.now();
    const finish = (statusCode: number | null, error: string | null): WebhookOutcome => ({
      statusCode,
      latencyMs: Math.round(performance.now() - started),
      error,
    });
    try {
      const url = new URL(call.url);
      const target = await resolveTarget(url.hostname, options.allowPrivate);
      const body = JSON.stringify(call.payload);
      const id = call.id ?? `msg_${randomUUID()}`;
      const timestamp = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
      const headers = {
        ...call.headers,
        'content-type': 'application/json',
        'user-agent': 'Herald-Webhooks/1.0',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(call.secret, id, timestamp, body),
      };
      const client = url.protocol === 'https:' ? https : http;
      const statusCode = await new Promise<number>((resolve, reject) => {
        const request = client.request(
          url,
          {
            method: 'POST',
            headers,
            lookup: (_hostname, lookupOptions, callback) =>
              (lookupOptions as { all?: boolean }).all
                ? (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target])
                : callback(null, target.address, target.family),
            signal: AbortSignal.timeout(options.timeoutMs),
          },
          (response) => {
            response.resume(); // the answer's body is not kept
            response.on('end', () => resolve(response.statusCode ?? 0));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      return finish(statusCode, statusCode >= 200 && statusCode < 300 ? null : `The receiver answered ${statusCode}.`);
    } catch (error) {
      if (error instanceof RefusedTarget) return finish(null, error.message);
      const failure = error as NodeJS.ErrnoException;
      if (failure.name === 'TimeoutError' || failure.name === 'AbortError') return finish(null, `No answer within ${options.timeoutMs / 1000} s.`);
      return finish(null, `The call failed: ${failure.code ?? failure.message}.`);
    }
  };
}
