import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer depends only on the caller's team and the URL: identical requests that arrive while
     * one is being answered are answered together by the next read (see `createReadBatches`).
     */
    sharedRead?: 'team';
  }
}

type Deferred<T> = { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void };

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type Waiting = Deferred<unknown> & { read: () => Promise<unknown> };
type KeyState = { next: Waiting | undefined };

/**
 * At most one read per key runs at a time; everything asked for that key while it runs waits and
 * shares the one read that starts after it. That read starts after every request it answers
 * arrived, so none of them can miss a change committed before it was sent: nothing is cached,
 * and an answer is never older than its request.
 */
export function createReadBatches() {
  const states = new Map<string, KeyState>();

  async function execute<T>(key: string, state: KeyState, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } finally {
      const next = state.next;
      if (next) {
        state.next = undefined;
        execute(key, state, next.read).then(next.resolve, next.reject);
      } else {
        states.delete(key);
      }
    }
  }

  return {
    run<T>(key: string, read: () => Promise<T>): Promise<T> {
      const state = states.get(key);
      if (!state) {
        const fresh: KeyState = { next: undefined };
        states.set(key, fresh);
        return execute(key, fresh, read);
      }
      state.next ??= { ...deferred<unknown>(), read };
      return state.next.promise as Promise<T>;
    },
    /** Keys with a read running (for tests). */
    get active(): number {
      return states.size;
    },
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Routes marked `config.sharedRead: 'team'` answer identical concurrent GETs of one team with one
 * read and one serialisation: their handler must return its 200 body and set nothing else on the reply.
 * Authentication, rate limits and logging still run for every request.
 */
export function registerSharedReads(app: FastifyInstance): void {
  const batches = createReadBatches();
  app.addHook('onRoute', (route) => {
    if (route.config?.sharedRead !== 'team') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) throw new Error(`sharedRead is for GET routes only: ${route.url}`);
    const handler = route.handler as (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
    route.handler = async function sharedRead(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      if (!request.auth) return handler.call(this, request, reply);
      // By role and scope too: an answer may show an admin's full token more (webhook header values, masked to others).
      const key = `${request.auth.teamId} ${request.auth.role} ${request.auth.scope} ${request.method} ${request.url}`;
      const body = await batches.run(key, async () => Buffer.from(reply.serialize(await handler.call(this, request, reply)) as string));
      return reply.type(JSON_TYPE).send(body);
    } as RouteHandlerMethod;
  });
}
