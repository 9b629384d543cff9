/**
 * Keystroke to updated counters, measured inside the page with the Performance API: from the keydown
 * event's timeStamp (the clock of performance.now()) to the MutationObserver callback that sees the
 * character counter's text change (the DOM the user will see), and to the next animation frame.
 * The body holds 1,599 characters; the keystrokes alternate a typed letter (1,600) and Backspace
 * (1,599), so every keystroke changes the count and the body never passes the 1,600 limit.
 */
import type { Page } from '@playwright/test';

export interface KeystrokeTimes {
  /** keydown → counter text changed in the DOM, ms, in keystroke order. */
  toDom: number[];
  /** keydown → start of the next animation frame after that change, ms. */
  toFrame: number[];
}

const GSM_SENTENCES = [
  'Hi {{first_name}}, our spring sale starts Friday at 9am in every store.',
  'Take 20% off shoes, bags & coats; members get €5 off orders over €50.',
  'Opening hours: Mon-Sat 9:00-20:00, Sun 10:00-16:00 (bank holidays vary).',
  'Questions? Call 0800 123 456 or reply HELP. Reply STOP to opt out.\n',
];

/** GSM text (a field, digits, punctuation, a few extension characters such as €) of exactly `length` characters. */
export function gsmBody(length: number): string {
  let body = '';
  for (let i = 0; body.length < length; i++) body += GSM_SENTENCES[i % GSM_SENTENCES.length] + ' ';
  return body.slice(0, length).replace(/\s$/, '.');
}

// A string, not a function: tsx's compiled functions call helpers that do not exist in the page.
const HARNESS = `(() => {
  const target = [...document.querySelectorAll('body *')].reverse().find((element) => /^[\\d,]+ \\/ 1,600 characters$/.test(element.textContent.trim()));
  if (!target) throw new Error('no character counter on the page');
  const records = [];
  const waiters = [];
  let pending = null;
  window.addEventListener('keydown', (event) => { pending = event.timeStamp; }, { capture: true });
  new MutationObserver(() => {
    if (pending === null) return;
    const started = pending;
    pending = null;
    const record = { toDom: performance.now() - started, toFrame: undefined, text: target.textContent.trim() };
    records.push(record);
    requestAnimationFrame(() => {
      record.toFrame = performance.now() - started;
      for (const waiter of waiters.splice(0)) waiter();
    });
  }).observe(target, { characterData: true, childList: true, subtree: true });
  window.__keystrokes = records;
  // Resolves with the n-th record once its frame has come (the pages' CSP forbids Playwright's waitForFunction).
  window.__keystroke = (n) => new Promise((resolve, reject) => {
    const check = () => (records[n - 1]?.toFrame !== undefined ? resolve(records[n - 1]) : waiters.push(check));
    check();
    setTimeout(() => reject(new Error('the counter did not change within 5 s of keystroke ' + n)), 5000);
  });
  return target.textContent.trim();
})()`;

/**
 * Puts a 1,599-character body in the page's Message textbox, waits for the counter to say so, then measures
 * `warmUp + count` keystrokes (the first `warmUp` are not kept), `pauseMs` apart like a fast typist.
 */
export async function measureKeystrokes(page: Page, { warmUp = 10, count = 100, pauseMs = 50 } = {}): Promise<KeystrokeTimes> {
  const textarea = page.getByRole('textbox', { name: 'Message' });
  await textarea.fill(gsmBody(1599));
  await page.getByText('1,599 / 1,600 characters', { exact: true }).waitFor();
  const initial = await page.evaluate<string>(HARNESS);
  if (initial !== '1,599 / 1,600 characters') throw new Error(`counter reads ${initial}`);
  await textarea.press('Control+End');

  const times: KeystrokeTimes = { toDom: [], toFrame: [] };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < warmUp + count; i++) {
    const typing = i % 2 === 0;
    await page.keyboard.press(typing ? letters[(i / 2) % letters.length]! : 'Backspace');
    const record = await page.evaluate<{ toDom: number; toFrame: number; text: string }>(`window.__keystroke(${i + 1})`);
    const expected = typing ? '1,600 / 1,600 characters' : '1,599 / 1,600 characters';
    if (record.text !== expected) throw new Error(`keystroke ${i + 1}: the counter reads "${record.text}", expected "${expected}"`);
    if (i >= warmUp) {
      times.toDom.push(record.toDom);
      times.toFrame.push(record.toFrame);
    }
    await page.waitForTimeout(pauseMs);
  }
  const records = await page.evaluate<number>('window.__keystrokes.length');
  if (records !== warmUp + count) throw new Error(`${records} counter updates for ${warmUp + count} keystrokes`);
  return times;
}
