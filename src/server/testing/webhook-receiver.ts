import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedCall = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

/**
 * A real HTTP server on loopback that records what it receives and answers `status` (or never, when
 * `hang`). `statuses`: the answers to the first calls, in turn (`reset`: the connection is cut with no
 * answer, a network error), then `status`.
 */
export async function startWebhookReceiver(options: { status?: number; hang?: boolean; redirectTo?: string; statuses?: Array<number | 'reset'> } = {}) {
  const scripted = [...(options.statuses ?? [])];
  const calls: ReceivedCall[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      calls.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      if (options.hang) return;
      const next = scripted.shift();
      if (next === 'reset') return void request.socket.destroy();
      if (options.redirectTo) {
        response.writeHead(302, { location: options.redirectTo }).end();
        return;
      }
      response.writeHead(next ?? options.status ?? 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
