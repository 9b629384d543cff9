import { createEngine } from '../engine/engine';
import { createEngineStore } from '../engine/store/postgres-store';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import type { Clock } from '../lib/time';
import { countingGateway, type GatewayLedger } from './counting-gateway';
import type { TestApp } from './test-app';

/**
 * What reaches the handsets of a test app's flows: the flows' advance (its webhook calls awaited),
 * then one tick of the engine's reply sender through the simulator, counted in `ledger`. Call it
 * again after moving the clock.
 */
export function flowDelivery(t: TestApp, clock: Clock, ledger: GatewayLedger): () => Promise<void> {
  return async () => {
    await t.services.flowAdvance.advanceDue();
    await t.services.flowAdvance.idle();
    const engine = createEngine({
      store: createEngineStore(t.database.db),
      gateway: countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger }),
      clock,
      options: { tickMs: 1000, batchSize: 50, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 1 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    });
    await engine.tick();
  };
}
