import { afterEach } from 'vitest';
import { SmppPeer } from '../../../testing/smpp-peer';
import type { InboundSms, OutgoingSms, Receipt } from '../sms-gateway';
import { createSmppGateway, parseSmppUrl } from './smpp-gateway';
import type { SmppGatewayOptions } from './smpp-gateway';

/** Timings short enough for tests, generous enough for a slow shared machine. */
export const FAST: Partial<SmppGatewayOptions> = {
  connectWaitMs: 5_000,
  reconnectMinMs: 20,
  reconnectMaxMs: 200,
  throttleMinMs: 10,
  throttleMaxMs: 100,
  enquireLinkTimeoutMs: 5_000,
  unbindTimeoutMs: 1_000,
};

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Stands for the store: resolves once a value is kept (the default keeps it at once). */
export type Store = { receipt?: (receipt: Receipt) => Promise<void>; inbound?: (message: InboundSms) => Promise<void> };

/**
 * A peer and a gateway bound to it (URL from parseSmppUrl), with what the gateway emits and logs
 * collected — what `store` accepted, when given — closed after the test.
 */
export async function connectGateway(
  options: Partial<SmppGatewayOptions> & { query?: Record<string, string | number>; password?: string; store?: Store; peer?: SmppPeer } = {},
) {
  const { query, password, store, peer: shared, ...overrides } = options;
  const peer = shared ?? (await SmppPeer.start());
  if (!shared) cleanups.push(() => peer.close());
  const logs: Array<{ level: string; message: string }> = [];
  const receipts: Receipt[] = [];
  const inbound: InboundSms[] = [];
  const url = peer.url(query, { systemId: peer.systemId, password: password ?? peer.password });
  const gateway = createSmppGateway({ ...parseSmppUrl(url), ...FAST, log: (level, message) => logs.push({ level, message }), ...overrides });
  cleanups.unshift(() => gateway.close());
  gateway.onReceipts(async (group) => {
    for (const receipt of group) {
      await store?.receipt?.(receipt);
      receipts.push(receipt);
    }
  });
  gateway.onInbound(async (message) => {
    await store?.inbound?.(message);
    inbound.push(message);
  });
  return { peer, gateway, logs, receipts, inbound };
}

let counter = 0;

export function sms(body: string, to = '+447700900001', from = 'Herald'): OutgoingSms {
  return { clientRef: `ref-${++counter}`, to, from, body };
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
