import type { SmsGateway } from '../gateways/sms/sms-gateway';
import type { Metrics } from './metrics';

/**
 * The code a refusal is counted under: the SMPP status name (`ESME_RINVDSTADR`), or its number for a
 * vendor status without one (`0x00000400`), so the label keeps to the carrier's finite set of statuses
 * and never takes free text.
 */
export function errorCode(reason: string): string {
  return /\b(ESME_[A-Z0-9_]+)\b/.exec(reason)?.[1] ?? /\b(0x[0-9A-Fa-f]{8})\b/.exec(reason)?.[1]?.toUpperCase().replace('0X', '0x') ?? 'rejected';
}

/**
 * `gateway` with its hand-overs observed by `metrics` (this process's series): the time each submit
 * took, and each message it did not take, by code (`errorCode`, `not_sent`: never handed over,
 * `in_doubt`: no answer, `exception`: the submit threw). Messages the engine itself called back (its
 * lease ended, the signal aborted) are not the gateway's errors and are not counted. Its bind state
 * is read at each scrape.
 */
export function instrumentGateway(gateway: SmsGateway, metrics: Metrics): SmsGateway {
  metrics.useGateway({ connected: () => (gateway.connected ? gateway.connected() : true) });
  return {
    ...gateway,
    async submit(batch, options) {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      let results: Awaited<ReturnType<SmsGateway['submit']>>;
      try {
        results = await gateway.submit(batch, options);
      } catch (error) {
        metrics.observeSubmit(
          seconds(),
          batch.length,
          batch.map(() => 'exception'),
        );
        throw error;
      }
      const aborted = options?.signal?.aborted === true;
      const answered = new Set<string>();
      const errors: string[] = [];
      for (const result of results) {
        answered.add(result.clientRef);
        if ('rejected' in result) errors.push(errorCode(result.rejected));
        else if ('notSent' in result && !aborted) errors.push('not_sent');
      }
      for (const message of batch) if (!answered.has(message.clientRef)) errors.push('in_doubt');
      metrics.observeSubmit(seconds(), batch.length, errors);
      return results;
    },
  };
}
