/** Debian's Chromium (never a downloaded browser) and the flags every browser of the benchmark starts with. */
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
