/**
 * The line between "never sent" and "in doubt", drawn over real sockets on loopback: a refused
 * connection and a connect timeout are `not_sent` (another connection may take the message); a
 * request written whole that gets no answer is `in_doubt` (the provider may have it).
 *
 * Seen red: with every failure reported `not_sent` (the `written` check removed), "received, never
 * answered" went red — the case a router must not fail over.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, providerAgent, retryAfterMs } from './http-call';

let server: http.Server;
let base: string;
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(`${request.method} ${request.url} ${body}`);
      if (request.url === '/silent') return; // takes the request, never answers
      response.writeHead(request.url === '/busy' ? 429 : 201, { 'content-type': 'application/json', 'retry-after': '3' });
      response.end(JSON.stringify({ sid: 'SM1', status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('httpCall', () => {
  it('returns the answer, whatever its status, with its headers', async () => {
    const agent = providerAgent(base);
    const ok = await httpCall({ method: 'POST', url: `${base}/ok`, headers: { 'content-type': 'text/plain' }, body: 'hi', timeoutMs: 2000, agent });
    expect(ok).toMatchObject({ kind: 'answered', answer: { status: 201, body: '{"sid":"SM1","status":"queued"}' } });
    const busy = await httpCall({ method: 'POST', url: `${base}/busy`, headers: {}, body: 'again', timeoutMs: 2000, agent });
    expect(busy.kind === 'answered' && retryAfterMs(busy.answer.headers)).toBe(3000);
    agent.destroy();
  });

  it('a refused connection was never sent', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await httpCall({ method: 'POST', url: `http://127.0.0.1:${port}/x`, headers: {}, body: 'x', timeoutMs: 2000 });
    expect(result).toMatchObject({ kind: 'not_sent', error: 'ECONNREFUSED' });
  });

  it('received, never answered: in doubt', async () => {
    const before = received.length;
    const result = await httpCall({ method: 'POST', url: `${base}/silent`, headers: {}, body: 'maybe', timeoutMs: 300 });
    expect(result).toMatchObject({ kind: 'in_doubt' });
    expect(received.slice(before)).toEqual(['POST /silent maybe']);
  });

  it('an address that is not a URL, or a call aborted before it starts, was never sent', async () => {
    expect(await httpCall({ method: 'POST', url: 'not a url', headers: {}, timeoutMs: 100 })).toMatchObject({ kind: 'not_sent' });
    const aborted = AbortSignal.abort();
    expect(await httpCall({ method: 'POST', url: `${base}/ok`, headers: {}, body: 'x', timeoutMs: 1000, signal: aborted })).toMatchObject({ kind: 'not_sent' });
  });
});
