/**
 * The Twilio fake (src/server/testing/provider-fakes/twilio-fake.ts) in a process of its own, for
 * the sending benchmark: a provider is another machine, so its work (reading each form, checking
 * the Basic auth, answering the Message resource) must not be counted on the sender's event loop.
 * It answers every request after `latencyMs` and keeps no request (only what it accepted).
 *
 * Started with `fork` (see `startTwilioFake`); it says `{ baseUrl }` once listening, and answers
 * `report` with what it accepted since the last `reset`: `[to, sid]` pairs; `cpu` with its CPU time.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { TwilioFake } from '../../src/server/testing/provider-fakes/twilio-fake';

type FromParent = { kind: 'report' } | { kind: 'reset' } | { kind: 'cpu' } | { kind: 'stop' };
type ToParent =
  { kind: 'ready'; baseUrl: string } | { kind: 'report'; accepted: Array<[string, string]> } | { kind: 'reset' } | { kind: 'cpu'; seconds: number };

export type TwilioFakeProcess = {
  baseUrl: string;
  /** What the fake accepted since the last reset: `[to, sid]` each. */
  report(): Promise<Array<[string, string]>>;
  /** Forgets what it accepted so far. */
  reset(): Promise<void>;
  /** CPU seconds the fake's process used so far (user and system). */
  cpu(): Promise<number>;
  stop(): Promise<void>;
};

/** Starts the fake in a child process (Node with tsx), answering each request `latencyMs` after it came. */
export async function startTwilioFake(account: { account_sid: string; auth_token: string }, latencyMs: number): Promise<TwilioFakeProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [JSON.stringify(account), String(latencyMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends ToParent['kind']>(kind: T) =>
    new Promise<Extract<ToParent, { kind: T }>>((resolve, reject) => {
      const onMessage = (message: ToParent) => {
        if (message.kind !== kind) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<ToParent, { kind: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the Twilio fake exited (${code}) before answering ${kind}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const { baseUrl } = await next('ready');
  return {
    baseUrl,
    async report() {
      const answer = next('report');
      child.send({ kind: 'report' } satisfies FromParent);
      return (await answer).accepted;
    },
    async reset() {
      const answer = next('reset');
      child.send({ kind: 'reset' } satisfies FromParent);
      await answer;
    },
    async cpu() {
      const answer = next('cpu');
      child.send({ kind: 'cpu' } satisfies FromParent);
      return (await answer).seconds;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ kind: 'stop' } satisfies FromParent);
      await exited;
    },
  };
}

// Run as the child: the fake itself.
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [accountJson, latency] = process.argv.slice(2) as [string, string];
  const fake = await new TwilioFake(JSON.parse(accountJson) as { account_sid: string; auth_token: string }, {
    latencyMs: Number(latency),
    keepRequests: false,
  }).start();
  const reply = (message: ToParent) => process.send!(message);
  process.on('message', (message: FromParent) => {
    if (message.kind === 'report') reply({ kind: 'report', accepted: fake.accepted.map((accepted): [string, string] => [accepted.to, accepted.id]) });
    else if (message.kind === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply({ kind: 'cpu', seconds: (user + system) / 1e6 });
    } else if (message.kind === 'reset') {
      fake.accepted.length = 0;
      reply({ kind: 'reset' });
    } else void fake.stop().then(() => process.exit(0));
  });
  // The parent gone (a failed benchmark): no fake left behind.
  process.on('disconnect', () => process.exit(0));
  reply({ kind: 'ready', baseUrl: fake.baseUrl });
}
