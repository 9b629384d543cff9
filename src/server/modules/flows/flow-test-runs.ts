import { FLOW_TEST_WAIT_MINUTES } from '../../../shared/contract';

/**
 * What the advance does differently for a test run (docs/flows.md, "Test runs"), in one place. A
 * test run is an ordinary run in every other way: claimed, done once per step and moved on in the
 * batch's transaction like any other.
 */

/**
 * When a test run's wait ends: the wait's own end, but at most FLOW_TEST_WAIT_MINUTES after `now`,
 * so a test of a flow that waits a day takes minutes, and still leaves the tester the time to tap
 * the first message's link before a `clicked` branch after the wait is evaluated.
 */
export function testWaitEnd(end: Date, now: Date): Date {
  return new Date(Math.min(end.getTime(), now.getTime() + FLOW_TEST_WAIT_MINUTES * 60_000));
}

/**
 * Whether a send step's message is marketing: a test run's never is (frequency caps neither count
 * nor skip it, as they never cap a campaign's test send).
 */
export const isMarketing = (transactional: boolean | undefined, test: boolean): boolean => transactional !== true && !test;

/** A webhook step's `run` object: a test run's says so (`test: true`); an ordinary run's is as it always was. */
export function webhookRun(run: { uuid: string; phone: string; fields: Record<string, string>; test: boolean }) {
  return { uuid: run.uuid, phone_number: run.phone, fields: run.fields, ...(run.test ? { test: true } : {}) };
}
