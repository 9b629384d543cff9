/** Debian's Chromium (never a downloaded browser) and the flags it starts with here: the end-to-end tests (playwright.config.ts) and the benchmarks. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
