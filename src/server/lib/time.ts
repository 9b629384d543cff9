/** Clock port: the engine and services read time through it so tests can move it. */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

export { formatTimestamp, parseTimestamp } from '../../shared/time/local-timestamps';
