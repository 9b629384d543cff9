import { describe, expect, it } from 'vitest';
import { parseSmppUrl } from './smpp-gateway';

describe('parseSmppUrl', () => {
  it('reads credentials (percent-encoded), host, port and parameters', () => {
    const url = `smpp://herald:${encodeURIComponent('p@ss:w%rd')}@smsc.example.net:2776?window=20&enquire_link_ms=15000&system_type=VMA&long=payload`;

    expect(parseSmppUrl(url)).toEqual({
      host: 'smsc.example.net',
      port: 2776,
      systemId: 'herald',
      password: 'p@ss:w%rd',
      window: 20,
      enquireLinkMs: 15000,
      systemType: 'VMA',
      long: 'payload',
    });
  });

  it('defaults the port to 2775 and allows an empty password', () => {
    expect(parseSmppUrl('smpp://herald@10.0.0.5')).toEqual({ host: '10.0.0.5', port: 2775, systemId: 'herald', password: '' });
  });

  it.each([
    ['not a url', /not a valid URL/],
    ['http://herald:secret@host:2775', /must start with smpp:\/\//],
    ['smpp://host:2775', /no system_id/],
    ['smpp://herald:secret@host:0', /port must be from 1 to 65535/],
    ['smpp://herald:secret@host?window=0', /window must be a whole number from 1/],
    ['smpp://herald:secret@host?enquire_link_ms=soon', /enquire_link_ms must be a whole number/],
    ['smpp://herald:secret@host?long=split', /long must be udh or payload/],
    ['smpp://herald:secret@host?windows=5', /unknown parameter "windows"/],
    ['smpp://herald:%E0%A4%A@host', /password is not valid percent-encoding/],
  ])('refuses %s with a clear message', (url, message) => {
    expect(() => parseSmppUrl(url)).toThrow(message);
  });

  it('never repeats the password in an error', () => {
    expect(() => parseSmppUrl('smpp://herald:hunter2@host?window=many')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
    expect(() => parseSmppUrl('smpp://herald:hunter2@ho st')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });
});
