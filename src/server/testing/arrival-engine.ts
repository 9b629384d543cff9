import { createEngine } from '../engine/engine';
import { createEngineStore } from '../engine/store/postgres-store';
import type { OutgoingSms } from '../gateways/sms/sms-gateway';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { countingGateway, GatewayLedger } from './counting-gateway';
import type { createTestClock, TestApp } from './test-app';

/**
 * An engine whose carrier notes when (on the test clock) each message reached it, for the tests of
 * sending by the recipients' own time (quiet hours, local time). The service's zone is London.
 */
export function arrivalEngine(t: TestApp, clock: ReturnType<typeof createTestClock>, rateLimitPerSecond = 1000) {
  const gateway = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
  const ledger = new GatewayLedger();
  const arrivals: Array<{ to: string; at: string }> = [];
  const counted = countingGateway(gateway, { ledger });
  const engine = createEngine({
    store: createEngineStore(t.database.db, { defaultZone: 'Europe/London' }),
    gateway: {
      ...counted,
      submit: (batch: OutgoingSms[], options) => {
        for (const message of batch) arrivals.push({ to: message.to, at: clock.now().toISOString() });
        return counted.submit(batch, options);
      },
    },
    clock,
    options: { tickMs: 1000, batchSize: 50, rateLimitPerSecond, leaseMs: 30_000 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
  return { engine, ledger, arrivals, gateway };
}

/** A campaign's messages by phone number: where each stands and why. */
export async function messagesOfCampaign(t: TestApp, uuid: string) {
  const { rows } = await t.database.pool.query(
    `SELECT m.phone_number, m.status, m.reason FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1 ORDER BY m.phone_number`,
    [uuid],
  );
  return rows as Array<{ phone_number: string; status: string; reason: string | null }>;
}
