import type { LongMessageMode } from './smpp-submission';

/** What `SMS_GATEWAY=smpp://…` says; the rest of the gateway's options keep their defaults. */
export type SmppUrlOptions = {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  window?: number;
  enquireLinkMs?: number;
  long?: LongMessageMode;
};

const DEFAULT_PORT = 2775;
const EXAMPLE = 'smpp://system_id:password@host:2775?window=10&enquire_link_ms=30000&system_type=&long=udh';

/**
 * Parses `smpp://user:pass@host:port?window=10&enquire_link_ms=30000&system_type=…&long=udh|payload`.
 * User and password may be percent-encoded (a password with `@` or `:` must be). Errors never
 * repeat the URL, which holds the password.
 */
export function parseSmppUrl(url: string): SmppUrlOptions {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error(`SMS_GATEWAY is not a valid URL; expected ${EXAMPLE}`);
  }
  if (parsed.protocol !== 'smpp:') throw new Error(`SMS_GATEWAY must start with smpp:// (got ${parsed.protocol}//); expected ${EXAMPLE}`);
  if (!parsed.hostname) throw new Error(`SMS_GATEWAY has no host; expected ${EXAMPLE}`);
  const systemId = decode(parsed.username, 'system_id');
  if (!systemId) throw new Error(`SMS_GATEWAY has no system_id (the user part); expected ${EXAMPLE}`);
  const options: SmppUrlOptions = {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : DEFAULT_PORT,
    systemId,
    password: decode(parsed.password, 'password'),
  };
  if (!(options.port >= 1 && options.port <= 65535)) throw new Error('SMS_GATEWAY port must be from 1 to 65535');
  for (const [name, value] of parsed.searchParams) readParameter(options, name, value);
  return options;
}

function readParameter(options: SmppUrlOptions, name: string, value: string): void {
  switch (name) {
    case 'window':
      options.window = integer(name, value, 1, 1000);
      return;
    case 'enquire_link_ms':
      options.enquireLinkMs = integer(name, value, 1, 3_600_000);
      return;
    case 'system_type':
      if (value.length > 12) throw new Error('SMS_GATEWAY system_type is longer than 12 characters (SMPP 3.4 allows 12)');
      options.systemType = value;
      return;
    case 'long':
      if (value !== 'udh' && value !== 'payload') throw new Error(`SMS_GATEWAY long must be udh or payload (got ${JSON.stringify(value)})`);
      options.long = value;
      return;
    default:
      throw new Error(`SMS_GATEWAY has an unknown parameter ${JSON.stringify(name)}; known: window, enquire_link_ms, system_type, long`);
  }
}

function integer(name: string, value: string, min: number, max: number): number {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) throw new Error(`SMS_GATEWAY ${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  return number;
}

function decode(component: string, name: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    throw new Error(`SMS_GATEWAY ${name} is not valid percent-encoding (write % as %25)`);
  }
}
