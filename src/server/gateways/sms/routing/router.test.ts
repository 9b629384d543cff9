import { getEventListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerAgent } from '../providers/http-call';
import { twilioAdapter } from '../providers/twilio';
import { createSimulatorGateway } from '../simulator';
import { TwilioFake } from '../../../testing/provider-fakes/twilio-fake';
import { createCircuitBreakers } from './circuit-breaker';
import { createPacer } from './pacer';
import { createRouter, type RoutedConnection, type TeamRoutes } from './router';

// The router's requests listen for the engine's abort without loading the engine's signal (issue
// 34, point 8): a batch of hundreds of one-message calls (Twilio) adds one listener to it, not one
// per call or per wait for a request slot, and every recipient still reaches the provider once.
//
// Seen red: with each call waiting for its slot and sending on the engine's signal itself (as
// before), the engine's signal held 300 listeners while the batch was in flight.

const ACCOUNT = { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'router-test-token-0123456789' };
let twilio: TwilioFake;
let connection: RoutedConnection;

beforeAll(async () => {
  twilio = await new TwilioFake(ACCOUNT, { latencyMs: 20 }).start();
  connection = {
    id: 1,
    uuid: randomUUID(),
    name: 'Twilio',
    provider: 'twilio',
    adapter: twilioAdapter,
    account: {
      baseUrl: twilio.baseUrl,
      credentials: ACCOUNT,
      statusCallbackUrl: 'http://127.0.0.1:1/status',
      timeoutMs: 5_000,
      agent: providerAgent(twilio.baseUrl, 16),
    },
    senders: ['+447700900001'],
    maxPerSecond: 10_000,
    sharedOpenUntil: 0,
  };
});
afterAll(async () => {
  connection.account.agent?.destroy();
  await twilio.stop();
});

describe('the router and the engine’s signal', () => {
  it('adds one listener to the engine’s signal for a whole batch, and sends each message once', async () => {
    const router = createRouter({
      breakers: createCircuitBreakers(),
      pacer: createPacer({ concurrency: 16 }),
      inDoubt: 'fail',
      installation: createSimulatorGateway({ latencyMs: 0, failureRate: 0 }),
    });
    const routes: TeamRoutes = {
      rules: [{ countries: ['*'], connections: [connection.uuid], sender: null }],
      connections: new Map([[connection.uuid, connection]]),
    };
    const batch = Array.from({ length: 300 }, (_, i) => ({ clientRef: randomUUID(), to: `447700900${String(i).padStart(3, '0')}`, from: 'Acme', body: 'Hi' }));
    const engine = new AbortController();
    let most = 0;
    const watching = setInterval(() => (most = Math.max(most, getEventListeners(engine.signal, 'abort').length)), 5);
    const results = await router.submit(7, routes, batch, { signal: engine.signal });
    clearInterval(watching);
    expect(most).toBe(1);
    expect(getEventListeners(engine.signal, 'abort')).toHaveLength(0);
    expect(results.filter((result) => 'gatewayId' in result)).toHaveLength(300);
    expect(twilio.accepted.map((m) => m.to).sort()).toEqual(batch.map((sms) => `+${sms.to}`).sort());
  });
});
