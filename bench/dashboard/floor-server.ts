/**
 * The floors of the dashboard benchmark, served by a bare node:http server on a random port:
 * - /campaigns: the same first page of campaigns as a plain server-rendered HTML table, no JavaScript;
 * - /editor: a plain textarea with plain-DOM counters (floor-editor.ts, bundled here with esbuild).
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Campaign } from '../../src/shared/contract';

export interface FloorServer {
  origin: string;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const STATUS = ['Pending', 'Sending', 'Sent'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2025-03-01 09:30:00` as the dashboard shows it: `1 Mar 2025, 09:30`. */
function readable(timestamp: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2})/.exec(timestamp);
  return match ? `${Number(match[3])} ${MONTHS[Number(match[2]) - 1]} ${match[1]}, ${match[4]}` : timestamp;
}

function campaignsPage(campaigns: readonly Campaign[], total: number, groupNames: ReadonlyMap<string, string>): string {
  const names = (uuids: readonly string[]) => escapeHtml(uuids.map((uuid) => groupNames.get(uuid) ?? 'a deleted group').join(', '));
  const rows = campaigns.map((campaign) => {
    const status = `${STATUS[campaign.status] ?? `Status ${campaign.status}`}${campaign.throttled && campaign.manually_paused ? ' · Paused' : ''}`;
    const throttled = campaign.throttled ? `<br><small>Throttled until ${readable(campaign.scheduled_finish_date)}</small>` : '';
    const excluded = campaign.excluded_contact_groups.length > 0 ? `<br><small>except ${names(campaign.excluded_contact_groups)}</small>` : '';
    return (
      `<tr><td><a href="/campaigns/${campaign.uuid}">${escapeHtml(campaign.name)}</a>${throttled}</td><td>${status}</td>` +
      `<td>${readable(campaign.scheduled_send_date)}</td><td>${names(campaign.included_contact_groups)}${excluded}</td>` +
      `<td>${escapeHtml(campaign.sender)}</td><td><button type="button" aria-label="Delete ${escapeHtml(campaign.name)}">Delete</button></td></tr>`
    );
  });
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Campaigns (benchmark floor page)"><title>Campaigns · Herald</title>
<style>body{font-family:system-ui,sans-serif;margin:24px}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:8px;border-bottom:1px solid #ddd;font-size:14px}</style>
</head><body>
<h1>Campaigns</h1><p>Messages sent to your contact groups, at a time you choose.</p><p><a href="/campaigns/new">New campaign</a></p>
<table aria-label="Campaigns"><thead><tr><th>Name</th><th>Status</th><th>Scheduled</th><th>Recipients</th><th>Sender</th><th>Actions</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
<p>1–${campaigns.length} of ${total} campaigns</p>
</body></html>`;
}

const EDITOR_PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Editor floor</title></head><body>
<label for="body">Message</label><br><textarea id="body" rows="16" cols="100"></textarea>
<p><span id="encoding"></span> <span id="segments" data-testid="segment-counter"></span></p><p id="characters"></p>
<script src="/editor.js"></script>
</body></html>`;

export async function startFloorServer(firstPage: {
  campaigns: readonly Campaign[];
  total: number;
  groupNames: ReadonlyMap<string, string>;
}): Promise<FloorServer> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./floor-editor.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
  });
  const pages: Record<string, { type: string; body: string | Uint8Array }> = {
    '/campaigns': { type: 'text/html; charset=utf-8', body: campaignsPage(firstPage.campaigns, firstPage.total, firstPage.groupNames) },
    '/editor': { type: 'text/html; charset=utf-8', body: EDITOR_PAGE },
    '/editor.js': { type: 'text/javascript; charset=utf-8', body: bundle.outputFiles[0]!.contents },
  };
  const server = http.createServer((request, response) => {
    const page = pages[(request.url ?? '/').split('?')[0]!];
    if (!page) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': page.type, 'cache-control': 'no-cache' }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
