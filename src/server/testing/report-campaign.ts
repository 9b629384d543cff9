import { expect } from 'vitest';
import { createEngine } from '../engine/engine';
import { createEngineStore } from '../engine/store/postgres-store';
import type { SmsGateway } from '../gateways/sms/sms-gateway';
import type { createTestClock, TestApp } from './test-app';

/**
 * A campaign sent to `contacts` recipients (07700 900`first`… on, each with a `first_name`), every
 * message handed over in one engine tick on 1 June 2026 at 10:06 London time, so that each report
 * has a row per recipient. Its uuid.
 */
export async function sentReportCampaign(
  t: TestApp,
  options: { token: string; clock: ReturnType<typeof createTestClock>; name: string; contacts: number; first?: number },
): Promise<string> {
  const post = async (url: string, body: unknown) => {
    const response = await t.request('POST', `/api/2.0${url}`, { token: options.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const template = (await post('/templates/', { name: 'Note', body: 'Hi {{first_name}}', sender: 'Acme' })).uuid;
  const group = (await post('/contact-groups/', { name: 'Customers', headers: ['first_name'] })).uuid;
  const contacts = Array.from({ length: options.contacts }, (_, i) => ({
    phone_number: `07700900${String((options.first ?? 0) + i).padStart(3, '0')}`,
    custom_fields: { first_name: `C${i}` },
  }));
  const added = await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: options.token, body: { contacts } });
  expect(added.statusCode, added.body).toBe(200);
  const campaign = (
    await post('/campaigns/', {
      name: options.name,
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:00:00',
      expiry_date: '2026-06-01 12:00:00',
      included_contact_groups: [group],
      template_uuid: template,
    })
  ).uuid as string;
  const gateway: SmsGateway = {
    submit: async (batch) => batch.map((sms) => ({ clientRef: sms.clientRef, gatewayId: `gw-${sms.to}` })),
    onReceipts: () => {},
    onInbound: () => {},
    close: async () => {},
  };
  const engine = createEngine({
    store: createEngineStore(t.database.db),
    gateway,
    clock: options.clock,
    options: { tickMs: 1000, batchSize: 1000, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 1 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
  options.clock.set('2026-06-01T09:06:00Z');
  await engine.tick();
  await engine.stop();
  return campaign;
}
