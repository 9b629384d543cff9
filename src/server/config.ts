import path from 'node:path';
import { z } from 'zod';
import { canonicalTimeZone } from '../shared/time/time-zones';
import { parseSmppUrl } from './gateways/sms/smpp/smpp-url';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('localhost'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_MIGRATION_URL: z.string().min(1).optional(),
  APP_TIMEZONE: z
    .string()
    .default('Europe/London')
    .refine((zone) => canonicalTimeZone(zone) !== null, 'APP_TIMEZONE must be an IANA time zone such as Europe/London.'),
  DEFAULT_COUNTRY: z.string().length(2).toUpperCase().default('GB'),
  SMS_GATEWAY: z
    .string()
    .default('simulator')
    .superRefine((value, ctx) => {
      if (value === 'simulator') return;
      try {
        parseSmppUrl(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `SMS_GATEWAY must be simulator or smpp://user:pass@host:port: ${(error as Error).message}` });
      }
    }),
  SMS_RATE_LIMIT: z.coerce.number().int().min(1).default(100),
  SMS_SIMULATOR_LATENCY_MS: z.coerce.number().int().min(0).default(500),
  SMS_SIMULATOR_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0),
  ENGINE_TICK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  ENGINE_LEASE_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  SMS_IN_DOUBT: z.enum(['fail', 'resend'], { message: 'SMS_IN_DOUBT must be fail or resend' }).default('fail'),
  SMS_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, 'must be smtp://[user:password@]host[:port] or smtps://…')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  REPORT_RETRY_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  EVENT_RETRY_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  EVENT_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  WEBHOOK_ALLOW_PRIVATE: booleanFlag,
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  HERALD_ADMIN_EMAIL: z.string().optional(),
  HERALD_ADMIN_PASSWORD: z.string().optional(),
  HERALD_SECRET_KEY: z.string().optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  SIGNUP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  DASHBOARD_CONNECT_SRC: z
    .string()
    .default('')
    .refine(
      (value) =>
        value.trim() === '' ||
        value
          .trim()
          .split(/\s+/)
          .every((origin) => /^https?:\/\/[^\s/;,']+$/.test(origin)),
      'DASHBOARD_CONNECT_SRC must be origins separated by spaces, e.g. https://herald.example.com',
    ),
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine(
      (value) => /^(true|false|\d+)$/.test(value) || value.split(',').every((part) => /^[0-9a-fA-F.:/]+$/.test(part.trim())),
      'TRUST_PROXY must be false, true, a number of proxies, or a comma-separated list of proxy addresses or CIDR ranges.',
    ),
  METRICS_PORT: z.coerce
    .number({ message: 'METRICS_PORT must be a port number (1-65535).' })
    .int('METRICS_PORT must be a whole port number (1-65535).')
    .min(1, 'METRICS_PORT must be a port number (1-65535).')
    .max(65535, 'METRICS_PORT must be a port number (1-65535).')
    .optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 32).')
    .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces (it travels in an Authorization header).')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  HERALD_TEST_CLOCK_FILE: z.string().min(1).optional(),
});

/**
 * The settings as the code reads them: the environment, checked and defaulted by EnvSchema, under
 * camel-case names, with what follows from other settings (PUBLIC_URL from PORT, MAIL_FROM from PUBLIC_URL).
 */
const ConfigSchema = EnvSchema.transform((e) => ({
  port: e.PORT,
  host: e.HOST,
  publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
  dataDir: path.resolve(e.DATA_DIR),
  databaseUrl: e.DATABASE_URL,
  /** The schema owner's connection (migrations, backup, restore) when DATABASE_URL is an application role; unset: DATABASE_URL is both. */
  databaseMigrationUrl: e.DATABASE_MIGRATION_URL,
  appTimezone: e.APP_TIMEZONE,
  defaultCountry: e.DEFAULT_COUNTRY,
  smsGateway: e.SMS_GATEWAY,
  smsRateLimit: e.SMS_RATE_LIMIT,
  smsSimulatorLatencyMs: e.SMS_SIMULATOR_LATENCY_MS,
  smsSimulatorFailureRate: e.SMS_SIMULATOR_FAILURE_RATE,
  engineTickMs: e.ENGINE_TICK_MS,
  engineLeaseMs: e.ENGINE_LEASE_MS,
  /** SMPP: a message that may or may not have reached the carrier is failed (`in_doubt`) or sent again. */
  smsInDoubt: e.SMS_IN_DOUBT,
  smsProviderTimeoutMs: e.SMS_PROVIDER_TIMEOUT_MS,
  smtpUrl: e.SMTP_URL,
  /** From header of report e-mails. */
  mailFrom: e.MAIL_FROM ?? `Herald <reports@${new URL(e.PUBLIC_URL ?? 'http://localhost').hostname}>`,
  /** First delay before a failed report e-mail is tried again (doubling each time). */
  reportRetryMs: e.REPORT_RETRY_MS,
  /** First delay before a failed event delivery is tried again (doubling each time, up to two hours, for 24 hours). */
  eventRetryMs: e.EVENT_RETRY_MS,
  /** Most messages in one call of a message event. */
  eventBatchSize: e.EVENT_BATCH_SIZE,
  webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
  webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
  adminEmail: e.HERALD_ADMIN_EMAIL,
  adminPassword: e.HERALD_ADMIN_PASSWORD,
  secretKey: e.HERALD_SECRET_KEY,
  rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
  loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
  /** Posts of the hosted sign-up page a minute per client address (modules/signup-page). */
  signupRateLimitPerMinute: e.SIGNUP_RATE_LIMIT_PER_MINUTE,
  bodyLimitBytes: e.BODY_LIMIT_BYTES,
  /** Other Herald services the dashboard's "service URL and token" sign-in may call (its CSP connect-src); none by default. */
  dashboardConnectSources: e.DASHBOARD_CONNECT_SRC.trim().split(/\s+/).filter(Boolean).join(' '),
  /**
   * Which X-Forwarded-For hops to believe, so the client address (per-address limits, the audit log)
   * is the real one behind a reverse proxy: false (none), true (all), a number of hops, or the
   * proxies' addresses (`127.0.0.1,10.0.0.0/8`).
   */
  trustProxy: ((value: string): boolean | number | string =>
    value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value.replace(/\s+/g, ''))(e.TRUST_PROXY),
  /** Where a `--role worker` process answers /metrics, /healthz and /readyz (it has no HTTP port otherwise); unset: nowhere. */
  metricsPort: e.METRICS_PORT,
  /** When set, /metrics answers only `Authorization: Bearer <this>`. */
  metricsToken: e.METRICS_TOKEN,
  logLevel: e.LOG_LEVEL,
  /** `pretty` lines for people, `json` for machines; `auto`: pretty on a terminal. */
  logFormat: e.LOG_FORMAT,
  /**
   * Tests only (the end-to-end journey): a file holding milliseconds by which this process's clock
   * runs ahead of the system's (lib/file-offset-clock.ts); unset, as in every real start: the system clock.
   */
  testClockFile: e.HERALD_TEST_CLOCK_FILE,
}));
export type Config = z.output<typeof ConfigSchema>;

/** Reads the environment once; every setting and its default lives here (the table in README.md, Configuration). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
