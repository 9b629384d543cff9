import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createPacer } from './pacer';

// The pacer's request slots (issue 34): a waiter that gives up when its signal aborts leaves the
// queue, so a slot released afterwards goes to one still waiting; and a waiter woken for its slot
// stops listening to its signal.
//
// Seen red: with the aborted waiter left in the queue (as before), "a slot released after an abort
// goes to a waiter still waiting" timed out (the release woke the departed waiter and the live one
// waited forever); with the listener not removed on waking, the listener count stayed at 1.

const never = 1_000_000; // messages a second: the bucket never makes anyone wait here

describe('pacer slots', () => {
  it('a slot released after an abort goes to a waiter still waiting', async () => {
    const pacer = createPacer({ concurrency: 1 });
    const held = await pacer.take(1, 1, never);
    expect(held).toBeTypeOf('function');
    const aborted = new AbortController();
    const leaving = pacer.take(1, 1, never, aborted.signal);
    const staying = pacer.take(1, 1, never);
    aborted.abort();
    expect(await leaving).toBe(false);
    (held as () => void)();
    const release = await staying;
    expect(release).toBeTypeOf('function');
    (release as () => void)();
  });

  it('a woken waiter no longer listens to its signal', async () => {
    const pacer = createPacer({ concurrency: 1 });
    const held = (await pacer.take(1, 1, never)) as () => void;
    const controller = new AbortController();
    const waiting = pacer.take(1, 1, never, controller.signal);
    await Promise.resolve();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    held();
    const release = (await waiting) as () => void;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    release();
  });
});
