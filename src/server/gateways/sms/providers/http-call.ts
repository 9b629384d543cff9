import http from 'node:http';
import https from 'node:https';

/** A provider's complete answer. */
export type HttpAnswer = { status: number; headers: Record<string, string>; body: string };

/**
 * What became of one HTTP call to a provider, as far as Herald can know:
 * - `answered`: the provider answered (any status; the adapter reads it);
 * - `not_sent`: the request never fully left this process (connection refused, DNS failure, a
 *   connect timeout, TLS refused): the provider cannot have acted on it, so another connection may
 *   take the message;
 * - `in_doubt`: the whole request was handed to the network and no complete answer came (a timeout,
 *   a reset): the provider may have taken it.
 */
export type HttpCallResult =
  | { kind: 'answered'; answer: HttpAnswer; latencyMs: number }
  | { kind: 'not_sent'; error: string; latencyMs: number }
  | { kind: 'in_doubt'; error: string; latencyMs: number };

export type HttpCall = {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole call, from the first byte to the last of the answer. */
  timeoutMs: number;
  /** Connecting (DNS, TCP, TLS) may take at most this long; a call cut off then was never sent. */
  connectTimeoutMs?: number;
  signal?: AbortSignal;
  agent?: http.Agent;
};

/** Keep-alive agents: a provider is called many times a second, over a few warm connections. */
export function providerAgent(url: string, maxSockets = 64): http.Agent {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  return url.startsWith('https:') ? new https.Agent(options) : new http.Agent(options);
}

/**
 * One call to a provider over node:http(s). Not `fetch`: fetch cannot say whether a failed request
 * had left before it failed, and that is the line between failing over safely and a possible
 * duplicate. The request counts as sent once it has been written whole (its `finish` event); any
 * failure before that is `not_sent`, any after it without a complete answer `in_doubt`.
 */
export function httpCall(call: HttpCall): Promise<HttpCallResult> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let written = false;
    const timers: { overall?: NodeJS.Timeout; connecting?: NodeJS.Timeout } = {};
    const settle = (result: HttpCallResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timers.overall);
      clearTimeout(timers.connecting);
      call.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const fail = (error: string) => settle(written ? { kind: 'in_doubt', error, latencyMs: since() } : { kind: 'not_sent', error, latencyMs: since() });

    let target: URL;
    try {
      target = new URL(call.url);
    } catch {
      settle({ kind: 'not_sent', error: `not a URL: ${call.url}`, latencyMs: 0 });
      return;
    }
    const body = call.body === undefined ? undefined : Buffer.from(call.body);
    const headers = { ...call.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const transport = target.protocol === 'https:' ? https : http;
    const request = transport.request(target, { method: call.method, headers, agent: call.agent });
    request.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));

    timers.overall = setTimeout(() => {
      fail(`no answer within ${call.timeoutMs} ms`);
      request.destroy();
    }, call.timeoutMs);
    if (call.connectTimeoutMs !== undefined) {
      timers.connecting = setTimeout(() => {
        fail(`not connected within ${call.connectTimeoutMs} ms`);
        request.destroy();
      }, call.connectTimeoutMs);
    }
    const onAbort = () => {
      fail('aborted');
      request.destroy();
    };
    if (call.signal?.aborted) {
      onAbort();
      return;
    }
    call.signal?.addEventListener('abort', onAbort, { once: true });

    request.on('socket', (socket) => {
      // A reused keep-alive socket is connected already.
      const connected = () => clearTimeout(timers.connecting);
      if (!socket.connecting) connected();
      else socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', connected);
    });
    request.on('finish', () => {
      written = true;
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
      response.on('aborted', () => fail('answer cut off'));
      response.on('end', () => {
        const answerHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers))
          if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
        settle({
          kind: 'answered',
          answer: { status: response.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks).toString('utf8') },
          latencyMs: since(),
        });
      });
    });
    request.end(body);
  });
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), when the answer has one. */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
