import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TestApp, TestUser } from './test-app';

/**
 * A campaign of the user's team that sent one message to each number given, as the engine leaves
 * them: delivered at `deliveredAt` (or failed), each with a short link of a tracked link (its code
 * returned by number). A send test (`test: true`) is made as the test-send flow makes one: `is_test`
 * and `test_of` its campaign. Clicks are then made through the real redirect (`click`).
 */
export async function campaignSentTo(
  t: TestApp,
  user: TestUser,
  options: { name: string; numbers: string[]; deliveredAt: Date; failed?: boolean; test?: boolean },
): Promise<{ id: number; uuid: string; codes: Record<string, string> }> {
  const db = t.database.db;
  const template = await t.request('POST', '/api/2.0/templates/', {
    token: user.token,
    body: { name: `${options.name} text`, body: 'Sale today!', sender: '88440' },
  });
  if (template.statusCode !== 201) throw new Error(template.body);
  const templateUuid = template.json().data.uuid as string;
  const { rows } = await db.execute<{ id: number; uuid: string }>(sql`
    INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status, started_sending_at, finished_sending_at,
                           message_count, next_sequence, anchor_sequence, is_test, test_of)
    SELECT t.team_id, t.id, ${options.name}, 'Acme', ${options.deliveredAt}, ${new Date(options.deliveredAt.getTime() + 86_400_000)}, 2,
           ${options.deliveredAt}, ${options.deliveredAt}, ${options.numbers.length}, ${options.numbers.length + 1}, ${options.numbers.length + 1},
           ${options.test === true}, ${options.test ? sql`(SELECT min(id) FROM campaigns WHERE team_id = t.team_id)` : sql`NULL`}
      FROM templates t WHERE t.uuid = ${templateUuid}
    RETURNING id::int AS id, uuid::text AS uuid`);
  const campaign = rows[0]!;
  const codes: Record<string, string> = {};
  for (const [index, number] of options.numbers.entries()) {
    const code = randomBytes(6).toString('hex').slice(0, 10);
    codes[number] = code;
    await db.execute(sql`
      WITH m AS (
        INSERT INTO messages (campaign_id, sequence, phone_number, status, reason, body, gateway_id, submitted_by, submitted_at, finished_at)
        VALUES (${campaign.id}, ${index + 1}, ${number}, ${options.failed ? 'failed' : 'delivered'}, ${options.failed ? 'Undeliverable' : null},
                ${`Sale! http://herald.test/l/${code}`}, ${`gw-${campaign.id}-${index}`}, 'test', ${options.deliveredAt}, ${options.deliveredAt})
        RETURNING id)
      INSERT INTO short_links (code, message_id, link_name, destination, created_at) SELECT ${code}, m.id, 'url', 'https://shop.example.com/', ${options.deliveredAt} FROM m`);
  }
  return { ...campaign, codes };
}

export const HUMAN = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
export const PREVIEW_BOT = 'WhatsApp/2.23.20.0';

/** A click on the short link `code` through the real redirect (`GET /l/{code}`), at the app's clock; a bot's when `userAgent` is one. */
export async function click(t: TestApp, code: string, userAgent = HUMAN): Promise<void> {
  const response = await t.app.inject({ method: 'GET', url: `/l/${code}`, headers: { 'user-agent': userAgent } });
  if (response.statusCode !== 302) throw new Error(`the click on ${code} answered ${response.statusCode}`);
}
