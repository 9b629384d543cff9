import { describe, expect, it } from 'vitest';
import { readUserAgent } from './user-agents';

describe('readUserAgent', () => {
  it('reads a phone, a tablet and a desktop', () => {
    expect(
      readUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'),
    ).toEqual({
      deviceType: 'mobile',
      osVersion: 'iOS 17.4',
      browserVersion: 'Mobile Safari 17.4',
      isBot: false,
    });
    expect(
      readUserAgent('Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1')
        .deviceType,
    ).toBe('tablet');
    expect(readUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36')).toMatchObject({
      deviceType: 'desktop',
      osVersion: 'Windows 10',
      browserVersion: 'Chrome 124.0.0.0',
    });
  });

  it('flags link-preview bots', () => {
    for (const agent of [
      'WhatsApp/2.23.20.0 A',
      'facebookexternalhit/1.1',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (compatible; Discordbot/2.0)',
    ]) {
      expect(readUserAgent(agent)).toMatchObject({ isBot: true, deviceType: 'bot' });
    }
  });

  it('keeps nothing when there is no user agent', () => {
    expect(readUserAgent(null)).toEqual({ deviceType: null, osVersion: null, browserVersion: null, isBot: false });
  });
});
