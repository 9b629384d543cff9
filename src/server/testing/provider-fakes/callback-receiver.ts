import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderCallback } from '../../gateways/sms/providers/provider';

/**
 * Herald's side of a provider's callbacks in the adapters' tests, until the callback routes take
 * them: a loopback server that keeps each callback raw, answers 403 to one `verify` refuses and 200
 * to the rest, and hands each verified one (with its path) to `onVerified`.
 */
export class CallbackReceiver {
  /** Every callback that arrived, verified or not. */
  readonly received: ProviderCallback[] = [];
  readonly verified: ProviderCallback[] = [];
  refused = 0;
  private server: http.Server | undefined;
  private port = 0;

  constructor(
    private readonly verify: (callback: ProviderCallback) => boolean,
    private readonly onVerified: (callback: ProviderCallback, path: string) => void = () => {},
  ) {}

  /** `http://127.0.0.1:<port>`, no trailing slash. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        const callback: ProviderCallback = { method: request.method ?? 'POST', url: `${this.baseUrl}${request.url}`, headers, rawBody: Buffer.concat(chunks) };
        this.received.push(callback);
        if (!this.verify(callback)) {
          this.refused++;
          response.writeHead(403).end();
          return;
        }
        this.verified.push(callback);
        this.onVerified(callback, request.url ?? '/');
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Forgets what arrived (between tests). */
  clear(): void {
    this.received.length = 0;
    this.verified.length = 0;
    this.refused = 0;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
