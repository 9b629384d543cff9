import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  it('takes the simulator or an smpp:// URL as SMS_GATEWAY, and says what is wrong with anything else without echoing the password', () => {
    expect(loadConfig({}).smsGateway).toBe('simulator');
    expect(loadConfig({ SMS_GATEWAY: 'smpp://herald:s%40cret@smsc.example.net:2775?window=20' }).smsGateway).toBe(
      'smpp://herald:s%40cret@smsc.example.net:2775?window=20',
    );
    expect(() => loadConfig({ SMS_GATEWAY: 'http://herald:s3cret@smsc.example.net' })).toThrow(/SMS_GATEWAY must be simulator or smpp:\/\//);
    expect(() => loadConfig({ SMS_GATEWAY: 'smpp://herald:s3cret@smsc.example.net?window=0' })).toThrow(/window/);
    try {
      loadConfig({ SMS_GATEWAY: 'smpp://herald:s3cret@smsc.example.net:99999' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('s3cret');
    }
  });

  it('reads METRICS_PORT and METRICS_TOKEN, and names what is wrong with a bad value', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: undefined, metricsToken: undefined });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'a'.repeat(32) })).toMatchObject({ metricsPort: 9464, metricsToken: 'a'.repeat(32) });
    for (const bad of ['http', '0', '65536', '80.5', '-1'])
      expect(() => loadConfig({ METRICS_PORT: bad })).toThrow(/METRICS_PORT: METRICS_PORT must be a .*port number/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, long enough' })).toThrow(/METRICS_TOKEN: METRICS_TOKEN must be printable ASCII/);
  });
});
