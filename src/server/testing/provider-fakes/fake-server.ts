import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a fake provider received it. */
export type FakeRequest = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: string };
/** What a fake answers: a status, headers and a body (JSON bodies given as objects). */
export type FakeAnswer = { status: number; headers?: Record<string, string>; body?: unknown };

/** How a fake behaves beyond its provider's protocol. */
export type FakeServerOptions = {
  /** Every answer leaves this long after its request was read whole (a provider's own latency; default 0). */
  latencyMs?: number;
  /**
   * Whether each request is kept in `requests` (default true). A benchmark sending tens of
   * thousands of requests turns it off: every body and header set kept is memory the fake never gives back.
   */
  keepRequests?: boolean;
};

/** A trouble the test puts the fake in, for its next calls. */
type Trouble = { kind: 'answer'; answer: FakeAnswer } | { kind: 'silent' };

/**
 * The common part of the loopback fakes of HTTP SMS providers (testing/provider-fakes/*-fake.ts):
 * a server on 127.0.0.1 whose `handle` is the provider's documented behaviour, and the troubles a
 * test can put it in — answer the next calls with a given error (429 with Retry-After, 503…), take
 * the next calls and never answer (the caller times out after sending: in doubt), or be down
 * (connections refused). Every request that reached it is kept in `requests`, troubled or not
 * (unless `keepRequests` is false). `latencyMs` delays every answer, troubled or not, by as much.
 */
export class FakeServer {
  readonly requests: FakeRequest[] = [];
  private server: http.Server | undefined;
  private port = 0;
  private troubles: Trouble[] = [];
  private silent = new Set<http.ServerResponse>();

  constructor(
    private readonly handle: (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>,
    private readonly options: FakeServerOptions = {},
  ) {}

  /** `http://127.0.0.1:<port>`: the connection's base URL. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const url = new URL(incoming.url ?? '/', this.baseUrl);
        const request: FakeRequest = {
          method: incoming.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: incoming.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        if (this.options.keepRequests !== false) this.requests.push(request);
        const trouble = this.troubles.shift();
        if (trouble?.kind === 'silent') {
          this.silent.add(response);
          return;
        }
        const answered = Promise.resolve(trouble?.kind === 'answer' ? trouble.answer : this.handle(request));
        const latencyMs = this.options.latencyMs ?? 0;
        void answered.then((answer) => (latencyMs > 0 ? setTimeout(send, latencyMs, response, answer) : send(response, answer)));
      });
    });
    // Started again after `down()` on the same port, so the connection's base URL stays true.
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The next `times` calls get `answer` instead of the provider's usual one. */
  failNext(times: number, answer: FakeAnswer): void {
    for (let i = 0; i < times; i++) this.troubles.push({ kind: 'answer', answer });
  }

  /** The next `times` calls are read whole and never answered (until `stop`). */
  silentNext(times: number): void {
    for (let i = 0; i < times; i++) this.troubles.push({ kind: 'silent' });
  }

  /** Stops listening: connections are refused until `up()`. */
  async down(): Promise<void> {
    await this.close();
  }

  async up(): Promise<void> {
    await this.start();
  }

  async stop(): Promise<void> {
    await this.close();
  }

  private async close(): Promise<void> {
    for (const response of this.silent) response.destroy();
    this.silent.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function send(response: http.ServerResponse, answer: FakeAnswer): void {
  const json = answer.body !== undefined && typeof answer.body !== 'string';
  const body = answer.body === undefined ? '' : json ? JSON.stringify(answer.body) : (answer.body as string);
  response.writeHead(answer.status, { ...(json ? { 'content-type': 'application/json' } : {}), ...answer.headers });
  response.end(body);
}

/** Posts a callback as a provider would (its signature headers given by the fake); the status Herald answered. */
export async function postCallback(url: string, options: { headers: Record<string, string>; body: string; method?: 'POST' | 'GET' }): Promise<number> {
  const response = await fetch(url, { method: options.method ?? 'POST', headers: options.headers, body: options.method === 'GET' ? undefined : options.body });
  await response.arrayBuffer();
  return response.status;
}
