import {
  FlowInputSchema,
  type Flow,
  type FlowCondition,
  type FlowInput,
  type FlowReentry,
  type FlowStep,
  type FlowStepStats,
  type FlowStepType,
  type FlowTrigger,
  type FlowTriggerType,
} from '../../../shared/contract';

/**
 * The step editor's draft of a flow: the flow's fields with each step as the editor holds it (a
 * `key` for React and the moves, a wait as an amount and a unit). `toFlowInput` turns it into the
 * request; a saved step keeps its `id`, so its counts, history and waiting runs stay (docs/flows.md).
 */

export type WaitUnit = 'minutes' | 'hours' | 'days';
export const WAIT_UNIT_MINUTES: Record<WaitUnit, number> = { minutes: 1, hours: 60, days: 1440 };

interface DraftCommon {
  /** The editor's own handle: the saved id, else one made here. */
  key: string;
  /** The saved step's id (absent on a new step: Herald gives it one). */
  id?: string;
  stats?: FlowStepStats;
}

export type DraftStep = DraftCommon &
  (
    | { type: 'send'; template_uuid: string; sender: string; transactional: boolean }
    | { type: 'wait'; mode: 'duration' | 'until'; amount: number | string; unit: WaitUnit; until_time: string }
    | { type: 'branch'; condition: FlowCondition; then: DraftStep[]; else: DraftStep[] }
    | { type: 'add_to_group' | 'remove_from_group'; group_uuid: string }
    | { type: 'webhook'; url: string }
    | { type: 'end' }
  );

export interface FlowDraft {
  name: string;
  trigger: FlowTrigger;
  steps: DraftStep[];
  enabled: boolean;
  reentry: FlowReentry;
}

/** A branch's two lists. */
export type Arm = 'then' | 'else';
/** Where a step is added: the flow's own list, or a branch's arm. */
export type ListOwner = { branch: string; arm: Arm } | null;

let made = 0;
const newKey = () => `new-${++made}`;

export const NEW_FLOW: FlowDraft = {
  name: '',
  trigger: { type: 'keyword', keyword_uuid: '' },
  steps: [],
  enabled: false,
  reentry: 'after_end',
};

export function emptyTrigger(type: FlowTriggerType): FlowTrigger {
  switch (type) {
    case 'keyword':
      return { type, keyword_uuid: '' };
    case 'group_joined':
      return { type, group_uuid: '' };
    case 'segment_entered':
      return { type, segment_uuid: '' };
    case 'anniversary':
      return { type, field: '', at: '10:00' };
    default:
      return { type };
  }
}

export function emptyStep(type: FlowStepType): DraftStep {
  const key = newKey();
  switch (type) {
    case 'send':
      return { key, type, template_uuid: '', sender: '', transactional: false };
    case 'wait':
      return { key, type, mode: 'duration', amount: 1, unit: 'days', until_time: '10:00' };
    case 'branch':
      return { key, type, condition: { type: 'last_message', event: 'clicked' }, then: [], else: [] };
    case 'add_to_group':
    case 'remove_from_group':
      return { key, type, group_uuid: '' };
    case 'webhook':
      return { key, type, url: '' };
    case 'end':
      return { key, type };
  }
}

/** A wait of `minutes` in the largest unit that divides it. */
function waitAmount(minutes: number): { amount: number; unit: WaitUnit } {
  if (minutes % WAIT_UNIT_MINUTES.days === 0) return { amount: minutes / WAIT_UNIT_MINUTES.days, unit: 'days' };
  if (minutes % WAIT_UNIT_MINUTES.hours === 0) return { amount: minutes / WAIT_UNIT_MINUTES.hours, unit: 'hours' };
  return { amount: minutes, unit: 'minutes' };
}

export function draftStep(step: FlowStep): DraftStep {
  const common = { key: step.id ?? newKey(), id: step.id, stats: step.stats };
  switch (step.type) {
    case 'send':
      return { ...common, type: 'send', template_uuid: step.template_uuid, sender: step.sender ?? '', transactional: step.transactional ?? false };
    case 'wait':
      return step.until_time !== undefined
        ? { ...common, type: 'wait', mode: 'until', amount: 1, unit: 'days', until_time: step.until_time }
        : { ...common, type: 'wait', mode: 'duration', ...waitAmount(step.minutes ?? 1), until_time: '10:00' };
    case 'branch':
      return { ...common, type: 'branch', condition: step.condition, then: step.then.map(draftStep), else: step.else.map(draftStep) };
    case 'add_to_group':
    case 'remove_from_group':
      return { ...common, type: step.type, group_uuid: step.group_uuid };
    case 'webhook':
      return { ...common, type: 'webhook', url: step.url };
    case 'end':
      return { ...common, type: 'end' };
  }
}

export function flowDraft(flow: Flow): FlowDraft {
  return { name: flow.name, trigger: flow.trigger, steps: flow.steps.map(draftStep), enabled: flow.enabled, reentry: flow.reentry };
}

function stepInput(step: DraftStep): FlowStep {
  const id = step.id === undefined ? {} : { id: step.id };
  switch (step.type) {
    case 'send':
      return {
        ...id,
        type: 'send',
        template_uuid: step.template_uuid,
        ...(step.sender.trim() ? { sender: step.sender.trim() } : {}),
        ...(step.transactional ? { transactional: true } : {}),
      };
    case 'wait':
      if (step.mode === 'until') return { ...id, type: 'wait', until_time: step.until_time };
      // An amount that is not a number is sent as it is: the contract's check names the field.
      return { ...id, type: 'wait', minutes: step.amount === '' ? Number.NaN : Number(step.amount) * WAIT_UNIT_MINUTES[step.unit] };
    case 'branch':
      return { ...id, type: 'branch', condition: step.condition, then: step.then.map(stepInput), else: step.else.map(stepInput) };
    case 'add_to_group':
    case 'remove_from_group':
      return { ...id, type: step.type, group_uuid: step.group_uuid };
    case 'webhook':
      return { ...id, type: 'webhook', url: step.url.trim() };
    case 'end':
      return { ...id, type: 'end' };
  }
}

/** The request of create and edit: the draft's steps with their ids, without counts or the editor's keys. */
export function toFlowInput(draft: FlowDraft): FlowInput {
  return { name: draft.name.trim(), trigger: draft.trigger, steps: draft.steps.map(stepInput), enabled: draft.enabled, reentry: draft.reentry };
}

/** The contract's own check of the request, as the API's 422 would name the fields (`steps.1.then.0.template_uuid`). */
export function checkFlowInput(input: FlowInput): Record<string, string[]> {
  const result = FlowInputSchema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.') || 'root';
    (errors[path] ??= []).push(issue.message);
  }
  return errors;
}

/** Every list of steps (the flow's and each branch's arms), changed by `change`. */
function mapLists(steps: DraftStep[], change: (list: DraftStep[]) => DraftStep[]): DraftStep[] {
  return change(steps).map((step) => (step.type === 'branch' ? { ...step, then: mapLists(step.then, change), else: mapLists(step.else, change) } : step));
}

export function updateStep(steps: DraftStep[], key: string, change: (step: DraftStep) => DraftStep): DraftStep[] {
  return mapLists(steps, (list) => list.map((step) => (step.key === key ? change(step) : step)));
}

export function removeStep(steps: DraftStep[], key: string): DraftStep[] {
  return mapLists(steps, (list) => list.filter((step) => step.key !== key));
}

/** Moves a step one place up (-1) or down (+1) within its own list. */
export function moveStep(steps: DraftStep[], key: string, by: -1 | 1): DraftStep[] {
  return mapLists(steps, (list) => {
    const at = list.findIndex((step) => step.key === key);
    const to = at + by;
    if (at < 0 || to < 0 || to >= list.length) return list;
    const moved = [...list];
    [moved[at], moved[to]] = [moved[to]!, moved[at]!];
    return moved;
  });
}

export function addStep(steps: DraftStep[], owner: ListOwner, step: DraftStep): DraftStep[] {
  if (owner === null) return [...steps, step];
  return updateStep(steps, owner.branch, (branch) => (branch.type === 'branch' ? { ...branch, [owner.arm]: [...branch[owner.arm], step] } : branch));
}

/** A step's place as the editor titles it ("Step 3, otherwise step 1"), or undefined when no step has the id. */
export function stepPlace(steps: readonly FlowStep[], id: string, prefix = ''): string | undefined {
  for (const [index, step] of steps.entries()) {
    const title = `${prefix}${prefix ? 'step' : 'Step'} ${index + 1}`;
    if (step.id === id) return title;
    if (step.type === 'branch') {
      const inner = stepPlace(step.then, id, `${title}, then `) ?? stepPlace(step.else, id, `${title}, otherwise `);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The step with the id, at any depth. */
export function findStep(steps: readonly DraftStep[] | readonly FlowStep[], id: string): FlowStep | DraftStep | undefined {
  for (const step of steps) {
    if (step.id === id) return step;
    if (step.type === 'branch') {
      const inner = findStep(step.then, id) ?? findStep(step.else, id);
      if (inner) return inner;
    }
  }
  return undefined;
}
