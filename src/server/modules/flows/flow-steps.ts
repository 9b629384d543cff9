import { randomBytes } from 'node:crypto';
import { allSteps, type FlowStep } from '../../../shared/contract';
import { localMoment } from '../../../shared/schedule/local-time';
import { formatTimestamp } from '../../../shared/time/local-timestamps';

/**
 * A flow's steps as the advance walks them: each step by its id, with the step that follows it. A
 * branch is followed by the first step of `then` or `else` (the advance chooses); the last step of
 * a list is followed by the step after the branch that holds it, and the last step of the flow by
 * nothing (the run is completed). A flow has no loops, so a run enters each step at most once.
 */
export type StepIndex = { first: string | null; steps: Map<string, { step: FlowStep; next: string | null }> };

export function indexSteps(steps: readonly FlowStep[]): StepIndex {
  const index = new Map<string, { step: FlowStep; next: string | null }>();
  const walk = (list: readonly FlowStep[], after: string | null): string | null => {
    for (let i = list.length - 1; i >= 0; i--) {
      const step = list[i]!;
      if (step.type === 'branch') {
        walk(step.then, after);
        walk(step.else, after);
      }
      index.set(step.id!, { step, next: after });
      after = step.id!;
    }
    return after;
  };
  return { first: walk(steps, null), steps: index };
}

/** The first step of a branch's chosen list, else the step after the branch. */
export function branchTarget(index: StepIndex, branchId: string, holds: boolean): string | null {
  const entry = index.steps.get(branchId)!;
  if (entry.step.type !== 'branch') return entry.next;
  const list = holds ? entry.step.then : entry.step.else;
  return list[0]?.id ?? entry.next;
}

const newStepId = () => `s_${randomBytes(6).toString('base64url')}`;

/** The steps with an id each: the client's where it sent one back, a new one elsewhere; `stats` dropped (answers only). */
export function withStepIds(steps: readonly FlowStep[]): FlowStep[] {
  return steps.map((step) => {
    const { stats: _stats, ...rest } = step;
    void _stats;
    const id = rest.id ?? newStepId();
    return rest.type === 'branch' ? { ...rest, id, then: withStepIds(rest.then), else: withStepIds(rest.else) } : ({ ...rest, id } as FlowStep);
  });
}

/** Every step of the flow (branches' included). */
export const stepsOf = allSteps;

/** When a wait step entered at `now` ends: after its minutes, or at the next `until_time` in `zone` (today's if still ahead). */
export function waitEnd(step: Extract<FlowStep, { type: 'wait' }>, zone: string, now: Date): Date {
  if (step.minutes !== undefined) return new Date(now.getTime() + step.minutes * 60_000);
  const today = formatTimestamp(now, zone).slice(0, 10);
  const at = localMoment(`${today} ${step.until_time}:00`, zone);
  if (at > now.getTime()) return new Date(at);
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return new Date(localMoment(`${tomorrow} ${step.until_time}:00`, zone));
}
