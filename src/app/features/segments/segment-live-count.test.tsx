/**
 * The builder's live count (issue 35, point 1): asked at once for the conditions a page opens with,
 * then once the editing has settled for 400 ms, with the conditions as they are then, never for each
 * keystroke on the way; nothing is asked while a condition is unfinished.
 *
 * Seen red: with the draft passed to the query undebounced (a request per draft), and with the
 * debounce at 0 ms (the request came before 400 ms had passed).
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import type { SegmentDraft } from './segment-form-values';
import { LIVE_COUNT_DEBOUNCE_MS, SegmentLiveCount } from './segment-live-count';

const draft = (value: string): SegmentDraft => ({ match: 'all', conditions: [{ type: 'field', field: 'first_name', op: 'contains', value }] });

afterEach(() => {
  vi.useRealTimers();
});

describe('the live count', () => {
  it('asks at once for the conditions it opens with, then once the editing has settled, with the last of them', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    signIn();
    const bodies: unknown[] = [];
    mockApi(async (request) => {
      const body = (await request.json()) as SegmentDraft;
      bodies.push(body);
      const value = (body.conditions[0] as { value: string }).value;
      return json({ data: { count: value === 'ann' ? 2 : 40 } });
    });
    const { rerender } = render(<SegmentLiveCount draft={draft('a')} />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(bodies).toEqual([draft('a')]);
    rerender(<SegmentLiveCount draft={draft('an')} />);
    await act(() => vi.advanceTimersByTimeAsync(LIVE_COUNT_DEBOUNCE_MS - 100));
    rerender(<SegmentLiveCount draft={draft('ann')} />);
    await act(() => vi.advanceTimersByTimeAsync(LIVE_COUNT_DEBOUNCE_MS - 1));
    expect(bodies).toEqual([draft('a')]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    // The answer and React Query's notifications run on (fake) timers too.
    for (let step = 0; step < 10 && !screen.getByRole('status').textContent?.startsWith('2'); step += 1) await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.getByRole('status')).toHaveTextContent('2contacts match');
    expect(bodies).toEqual([draft('a'), draft('ann')]);
  });

  it('asks nothing while a condition is unfinished, and says so', () => {
    signIn();
    const fetches = mockApi(() => json({ data: { count: 1 } }));
    render(<SegmentLiveCount draft={null} />);
    expect(screen.getByText('Finish the conditions to see how many contacts match.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('—');
    expect(fetches).not.toHaveBeenCalled();
  });
});
