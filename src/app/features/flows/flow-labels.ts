import type { FlowRunState, FlowStepType, FlowTrigger, FlowTriggerType } from '../../../shared/contract';

/** The editor's and the lists' words for what the contract names. */

/** The names of what a flow points at, from what the page read (undefined while unknown). */
export interface FlowNames {
  keyword: (uuid: string) => string | undefined;
  group: (uuid: string) => string | undefined;
  segment: (uuid: string) => string | undefined;
  template: (uuid: string) => string | undefined;
}

export const NO_NAMES: FlowNames = { keyword: () => undefined, group: () => undefined, segment: () => undefined, template: () => undefined };

export const TRIGGER_LABELS: Record<FlowTriggerType, string> = {
  keyword: 'A number texts a keyword',
  group_joined: 'A number joins a contact group',
  segment_entered: 'A number enters a segment',
  conversion: 'A conversion is recorded',
  anniversary: 'A date field comes round (e.g. a birthday)',
  api: 'Only an API call (or a test run)',
};

/** The trigger as a sentence, e.g. "When a number texts JOIN". */
export function triggerSentence(trigger: FlowTrigger, names: FlowNames): string {
  switch (trigger.type) {
    case 'keyword':
      return `When a number texts ${names.keyword(trigger.keyword_uuid) ?? 'a keyword'}`;
    case 'group_joined':
      return `When a number joins ${names.group(trigger.group_uuid) ?? 'a contact group'}`;
    case 'segment_entered':
      return `When a number enters ${names.segment(trigger.segment_uuid) ?? 'a segment'}`;
    case 'conversion':
      return 'When a conversion is recorded';
    case 'anniversary':
      return `On the anniversary of ${trigger.field} at ${trigger.at}`;
    case 'api':
      return 'When started through the API';
  }
}

export const STEP_LABELS: Record<FlowStepType, string> = {
  send: 'Send a template',
  wait: 'Wait',
  branch: 'Branch on a condition',
  add_to_group: 'Add to a group',
  remove_from_group: 'Remove from a group',
  webhook: 'Call a webhook',
  end: 'End',
};

export const RUN_STATE_LABELS: Record<FlowRunState, string> = { active: 'Active', completed: 'Completed', exited: 'Exited' };
export const RUN_STATE_COLORS: Record<FlowRunState, string> = { active: 'blue', completed: 'green', exited: 'gray' };

/** What a step did, or why a run left it (FlowRunStep.outcome, a run's exit_reason). */
const OUTCOMES: Record<string, string> = {
  sent: 'Message queued',
  waited: 'Waited',
  then: 'Condition held: then',
  else: 'Condition did not hold: else',
  added: 'Added to the group',
  removed: 'Removed from the group',
  webhook_called: 'Webhook called',
  ended: 'Ended',
  opted_out: 'Opted out',
  flow_disabled: 'Flow disabled',
  step_removed: 'Step removed from the flow',
  replaced: 'Replaced by a newer test',
};

export const outcomeLabel = (outcome: string | null): string => (outcome === null ? 'In progress' : (OUTCOMES[outcome] ?? outcome));

export const TRIGGERED_BY: Record<FlowTriggerType, string> = {
  keyword: 'keyword',
  group_joined: 'group joined',
  segment_entered: 'segment entered',
  conversion: 'conversion',
  anniversary: 'anniversary',
  api: 'API or test',
};
