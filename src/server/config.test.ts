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
});
