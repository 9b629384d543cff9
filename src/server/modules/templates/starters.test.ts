/**
 * Starter templates (issue 35, point 5): `GET /templates/starters`, and each starter made into a
 * template through the real validator (`POST /templates/`), with the opt-out wording, a fallback for
 * every field, GSM-7 text and at most two SMS parts.
 *
 * Seen red: with " Reply STOP to opt out." taken off the sale starter, the wording check failed for
 * it; with its `{{discount}}` fallback removed, the fallback check named `discount`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_OPT_OUT, TEMPLATE_STARTERS } from '../../../shared/contract';
import { fieldUses, measure, render } from '../../../shared/sms';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
let owner: TestUser;
const call = (method: 'GET' | 'POST', url: string, body?: unknown, token = owner.token) => t.request(method, `/api/2.0${url}`, { token, body });

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user();
});
afterAll(() => t.close());

describe('starter templates', () => {
  it('lists the five starters, read-only, for any member', async () => {
    const response = await call('GET', '/templates/starters');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((s: { key: string }) => s.key)).toEqual(['welcome', 'sale', 'back_in_stock', 'abandoned_cart', 'review_request']);
    expect((await t.request('GET', '/api/2.0/templates/starters')).statusCode).toBe(401);
  });

  for (const starter of TEMPLATE_STARTERS) {
    it(`${starter.key}: passes the template validator, ends with the opt-out wording and never sends a gap`, async () => {
      const created = await call('POST', '/templates/', { name: starter.name, body: starter.body, sender: 'Acme' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.body).toBe(starter.body);
      expect(starter.body.endsWith(STARTER_OPT_OUT)).toBe(true);
      expect(fieldUses(starter.body).filter((use) => !use.fallback)).toEqual([]);
      // Sent to a contact without a single field: the fallbacks, GSM-7, one or two parts.
      const bare = render(starter.body);
      expect(bare).not.toMatch(/\{\{|\}\}/);
      const measured = measure(bare);
      expect(measured.encoding).not.toBe('UTF16');
      expect(measured.segments).toBeLessThanOrEqual(2);
    });
  }
});
