import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { localTimestampFormatter } from '../../shared/time/local-timestamps';

export type LogFormat = 'pretty' | 'json';

/**
 * Fields of Herald's own lines that their message already says in words: a terminal shows the
 * sentence, a machine reads the fields (JSON). An error's stack, and anything else, is still shown.
 */
const SAID_IN_THE_MESSAGE = [
  'pid',
  'hostname',
  'request_id',
  'req',
  'res',
  'responseTime',
  'user',
  'team',
  'token',
  'email',
  'event',
  'campaign',
  'counts',
  'rate_per_second',
  'elapsed_seconds',
  'migration',
  'ms',
].join(',');

/** `2026-11-26 21:14:03.123` in `zone` (APP_TIMEZONE): the clock the people reading the terminal keep. */
export function localLogTime(zone: string): (epochMs: number) => string {
  const toSecond = localTimestampFormatter(zone);
  return (epochMs) => `${toSecond(epochMs)}.${String(((epochMs % 1000) + 1000) % 1000).padStart(3, '0')}`;
}

/**
 * The process's logger (docs/operations.md, logs). `pretty`: one readable line per event, times in
 * APP_TIMEZONE, the request id in front (a terminal: `npm start` by hand). `json`: one JSON object a
 * line with an ISO 8601 UTC `time`, for journald, a container runtime or a log shipper. `auto` (the
 * default) is `pretty` when standard output is a terminal.
 */
export function createLogger(config: { logLevel: string; logFormat: LogFormat | 'auto'; appTimezone: string }): Logger {
  const destination = process.stdout;
  const format = config.logFormat === 'auto' ? (destination.isTTY ? 'pretty' : 'json') : config.logFormat;
  if (format === 'json') return pino({ level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(1));
  const time = localLogTime(config.appTimezone);
  const stream = pretty({
    destination,
    sync: true,
    colorize: destination.isTTY === true,
    ignore: SAID_IN_THE_MESSAGE,
    messageFormat: '{if request_id}{request_id} {end}{msg}',
    // The raw epoch milliseconds (translateTime off), shown on APP_TIMEZONE's clock.
    translateTime: false,
    customPrettifiers: { time: (value) => (typeof value === 'number' ? time(value) : String(value)) },
    singleLine: true,
  });
  return pino({ level: config.logLevel }, stream);
}
