// The systemd unit docs/deploy.md gives operators (issue 32, point 10): it starts Herald exactly as
// `npm start` does, without npm (so the journal gets Herald's JSON lines only), lets Herald stop its
// own PostgreSQL (`KillMode=mixed`: SIGTERM to Herald alone), is hardened (`NoNewPrivileges`,
// `ProtectSystem=strict` with only DATA_DIR writable, `PrivateTmp`), and the install leaves the code
// root's (no `chown` of it to the service user; the dashboard built ahead, as the service cannot).
// That Herald stops cleanly on SIGTERM is proven on real processes by src/server/main.test.ts and
// src/server/deploy.test.ts.
//
// Seen red against the unit as it was: ExecStart `/usr/bin/npm start`, no KillMode nor hardening,
// `sudo chown -R herald:herald /opt/herald` in the install.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const deploy = fs.readFileSync(path.join(ROOT, 'docs/deploy.md'), 'utf8');
const blocks = (language: string) => [...deploy.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'gm'))].map((m) => m[1]!);

/** The unit's `[Service]` settings: each key's values in order (a key may repeat, e.g. Environment). */
function serviceSettings(): Map<string, string[]> {
  const unit = blocks('ini').find((block) => block.includes('[Service]'));
  if (!unit) throw new Error('docs/deploy.md has no unit with a [Service] section');
  const service = unit.slice(unit.indexOf('[Service]'), unit.indexOf('[Install]'));
  const settings = new Map<string, string[]>();
  for (const line of service.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

describe('the systemd unit in docs/deploy.md', () => {
  const settings = serviceSettings();
  const one = (key: string) => {
    const values = settings.get(key) ?? [];
    expect(values, key).toHaveLength(1);
    return values[0]!;
  };

  it('runs Node as npm start does (its flags and entry point), without npm in front of the log', () => {
    const start = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const node = /exec node (.*)$/.exec(start)?.[1];
    expect(node, start).toBeDefined();
    expect(one('ExecStart')).toBe(`/usr/bin/node ${node}`);
    expect(one('WorkingDirectory')).toBe('/opt/herald');
  });

  it('sends SIGTERM to Herald alone, which stops its database itself', () => {
    expect(one('KillMode')).toBe('mixed');
    expect(one('KillSignal')).toBe('SIGTERM');
  });

  it('is hardened: no new privileges, a read-only system but for DATA_DIR, a private /tmp', () => {
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('PrivateTmp')).toBe('yes');
    const dataDir = (settings.get('Environment') ?? []).find((value) => value.startsWith('DATA_DIR='))?.slice('DATA_DIR='.length);
    expect(dataDir).toBe('/var/lib/herald');
    expect(one('ReadWritePaths')).toBe(dataDir);
    expect(one('User')).toBe('herald');
  });

  it('leaves the code to root: nothing gives it to the service user, and the dashboard is built at install', () => {
    const shell = blocks('sh').join('\n');
    expect(shell).not.toMatch(/chown[^\n]*\/opt\/herald/);
    expect(shell).toMatch(/sudo npm ci --omit=dev\n(?:.*\n)?sudo npm run build/);
    expect(shell).toContain('useradd --system --home /var/lib/herald');
  });
});
