import { expect } from 'vitest';
import type { TestApp } from './test-app';

/** A clock that runs in real time (leases are renewed on timers) from a chosen start, and can jump ahead. */
export function liveClock(start: string) {
  let offset = new Date(start).getTime() - Date.now();
  return { now: () => new Date(Date.now() + offset), jump: (ms: number) => void (offset += ms) };
}

/**
 * A campaign from the sender `Acme` to `group` with `template`, due two seconds from `clock`'s now
 * and then made due by moving the clock; it expires `expiresInMs` after now. Its uuid and database id.
 */
export async function campaignDueNow(
  t: TestApp,
  options: { token: string; clock: ReturnType<typeof liveClock>; name: string; group: string; template: string; expiresInMs?: number },
): Promise<{ uuid: string; id: number }> {
  const { clock } = options;
  const at = (ms: number) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(clock.now().getTime() + ms));
  const response = await t.request('POST', '/api/2.0/campaigns/', {
    token: options.token,
    body: {
      name: options.name,
      sender: 'Acme',
      scheduled_send_date: at(2000),
      expiry_date: at(options.expiresInMs ?? 3_600_000),
      included_contact_groups: [options.group],
      excluded_contact_groups: [],
      template_uuid: options.template,
    },
  });
  expect(response.statusCode).toBe(201);
  clock.jump(2000);
  const uuid = response.json().data.uuid as string;
  return { uuid, id: Number((await t.database.pool.query(`SELECT id FROM campaigns WHERE uuid = $1`, [uuid])).rows[0].id) };
}
