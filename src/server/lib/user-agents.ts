import { UAParser } from 'ua-parser-js';

export type VisitorDevice = { deviceType: string | null; osVersion: string | null; browserVersion: string | null; isBot: boolean };

// Chat apps and social sites fetch a link to draw its preview: those clicks are not a person's.
const PREVIEW_BOTS =
  /bot\b|crawler|spider|preview|facebookexternalhit|facebookcatalog|whatsapp|telegram|slack|discord|skype|linkedin|pinterest|embedly|vkshare|redditbot|applebot|google-?(?:read-aloud|site-verification)|headlesschrome/i;

const joined = (name?: string, version?: string) => (name ? [name, version].filter(Boolean).join(' ') : null);

/** A user agent read for the clicks report (device type, OS version, browser version). */
export function readUserAgent(userAgent: string | null): VisitorDevice {
  if (!userAgent) return { deviceType: null, osVersion: null, browserVersion: null, isBot: false };
  const parsed = new UAParser(userAgent).getResult();
  const isBot = PREVIEW_BOTS.test(userAgent);
  return {
    deviceType: isBot ? 'bot' : (parsed.device.type ?? 'desktop'),
    osVersion: joined(parsed.os.name, parsed.os.version),
    browserVersion: joined(parsed.browser.name, parsed.browser.version),
    isBot,
  };
}
