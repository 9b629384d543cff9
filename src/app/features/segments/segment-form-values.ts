import { set, type FieldError, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  DATE_FIELD_OPS,
  DAYS_FIELD_OPS,
  NUMBER_FIELD_OPS,
  SegmentInputSchema,
  VALUELESS_FIELD_OPS,
  type Condition,
  type FailureClass,
  type FieldOp,
  type LeafCondition,
  type SegmentEvent,
  type SegmentInput,
  type SegmentMatch,
} from '../../../shared/contract/segments';

/** A leaf condition's type, or a group of conditions (top level only). */
export type ConditionType = Condition['type'];
export type LeafType = LeafCondition['type'];

/**
 * One condition as the form holds it: every type's inputs at once, so a row whose type is changed
 * keeps what was typed for the other types, and each input is a string while it is being typed ('' for
 * none). The names are the contract's, so a request field's error (`conditions.1.value`) lands on
 * the input of the same name. `op` is the type's own (a field op, or in / not_in).
 */
export interface LeafValues {
  type: ConditionType;
  field: string;
  op: string;
  value: string;
  group_uuid: string;
  values: string[];
  event: SegmentEvent;
  /** '' for any campaign. */
  campaign_uuid: string;
  within_days: string;
  value_gt: string;
  /** '' for any reason. */
  reason_class: FailureClass | '';
}

/** A top-level row: a leaf, or a group of conditions with its own match and leaf rows (one level only). */
export interface ConditionValues extends LeafValues {
  match: SegmentMatch;
  conditions: LeafValues[];
}

export interface SegmentFormValues {
  name: string;
  description: string;
  match: SegmentMatch;
  conditions: ConditionValues[];
}

/** What the live count asks about: the segment's conditions, before it is saved. */
export type SegmentDraft = Pick<SegmentInput, 'match' | 'conditions'>;

const DEFAULT_OPS: Record<ConditionType, string> = { field: 'equals', group: 'in', country: 'in', event: 'in', group_of_conditions: 'in' };

/** A new row inside a group of conditions. */
export function emptyLeaf(type: LeafType = 'field'): LeafValues {
  return {
    type,
    field: '',
    op: DEFAULT_OPS[type],
    value: '',
    group_uuid: '',
    values: [],
    event: 'clicked',
    campaign_uuid: '',
    within_days: '',
    value_gt: '',
    reason_class: '',
  };
}

/** A new top-level row of `type`; a new group holds one empty field condition to start from. */
export function emptyCondition(type: ConditionType = 'field'): ConditionValues {
  return { ...emptyLeaf('field'), type, op: DEFAULT_OPS[type], match: 'any', conditions: type === 'group_of_conditions' ? [emptyLeaf('field')] : [] };
}

/** The row switched to another type: the op becomes that type's (a field op means nothing to a group). */
export function withType<Row extends LeafValues>(row: Row, type: ConditionType): Row {
  const switched: Row = { ...row, type, op: DEFAULT_OPS[type] };
  const group = switched as Partial<ConditionValues>;
  if (type === 'group_of_conditions' && group.conditions?.length === 0) return { ...switched, conditions: [emptyLeaf('field')] };
  return switched;
}

export const NEW_SEGMENT: SegmentFormValues = { name: '', description: '', match: 'all', conditions: [emptyCondition('field')] };

const text = (value: string | number | undefined) => (value === undefined ? '' : String(value));

function conditionValues(condition: Condition): ConditionValues {
  const row = { ...emptyCondition(condition.type), conditions: [] };
  switch (condition.type) {
    case 'field':
      return { ...row, field: condition.field, op: condition.op, value: text(condition.value) };
    case 'group':
      return { ...row, op: condition.op, group_uuid: condition.group_uuid };
    case 'country':
      return { ...row, op: condition.op, values: [...condition.values] };
    case 'event':
      return {
        ...row,
        event: condition.event,
        campaign_uuid: condition.campaign_uuid ?? '',
        within_days: text(condition.within_days),
        value_gt: text(condition.value_gt),
        reason_class: condition.reason_class ?? '',
      };
    case 'group_of_conditions':
      return { ...row, match: condition.match, conditions: condition.conditions.map((inner) => leafValues(conditionValues(inner))) };
  }
}

const leafValues = ({ match: _match, conditions: _conditions, ...leaf }: ConditionValues): LeafValues => leaf;

/** A saved segment (or any segment input) as the form edits it. */
export function segmentFormValues(segment: Pick<SegmentInput, 'name' | 'description' | 'match' | 'conditions'>): SegmentFormValues {
  return { name: segment.name, description: segment.description ?? '', match: segment.match, conditions: segment.conditions.map(conditionValues) };
}

/** A typed number as a number when it reads as one; otherwise the text, for the contract to refuse in its own words. */
function numberOrText(typed: string): number | string {
  const trimmed = typed.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

function fieldValue(op: FieldOp, typed: string): string | number | undefined {
  if (VALUELESS_FIELD_OPS.has(op) || typed.trim() === '') return undefined;
  if (NUMBER_FIELD_OPS.has(op) || DAYS_FIELD_OPS.has(op)) return numberOrText(typed);
  if (DATE_FIELD_OPS.has(op)) return typed.trim();
  return typed;
}

/** An optional number of the event condition: left out when empty. */
function optionalNumber(typed: string): number | undefined {
  const value = numberOrText(typed);
  if (value === '') return undefined;
  // Text where a number belongs is sent as NaN, which the contract refuses as "must be a number".
  return typeof value === 'number' ? value : Number.NaN;
}

/** The condition as the API takes it: only its type's keys, each in its type. */
export function toCondition(row: LeafValues | ConditionValues): Condition {
  switch (row.type) {
    case 'field': {
      const op = row.op as FieldOp;
      const value = fieldValue(op, row.value);
      return { type: 'field', field: row.field.trim(), op, ...(value !== undefined && { value }) };
    }
    case 'group':
      return { type: 'group', op: row.op as 'in' | 'not_in', group_uuid: row.group_uuid };
    case 'country':
      return { type: 'country', op: row.op as 'in' | 'not_in', values: row.values };
    case 'event': {
      const withinDays = optionalNumber(row.within_days);
      const valueGt = row.event === 'converted' ? optionalNumber(row.value_gt) : undefined;
      const hasCampaign = row.event !== 'replied' && row.event !== 'opted_in' && row.campaign_uuid !== '';
      return {
        type: 'event',
        event: row.event,
        ...(hasCampaign && { campaign_uuid: row.campaign_uuid }),
        ...(withinDays !== undefined && { within_days: withinDays }),
        ...(valueGt !== undefined && { value_gt: valueGt }),
        ...(row.event === 'failed' && row.reason_class !== '' && { reason_class: row.reason_class }),
      };
    }
    case 'group_of_conditions': {
      const group = 'conditions' in row ? row : { match: 'any' as const, conditions: [] };
      return { type: 'group_of_conditions', match: group.match, conditions: group.conditions.map((inner) => toCondition(inner) as LeafCondition) };
    }
  }
}

/** The request body of create and edit. */
export function toSegmentInput(values: SegmentFormValues): SegmentInput {
  return { name: values.name, description: values.description.trim(), match: values.match, conditions: values.conditions.map(toCondition) };
}

/** Every rule's first message, keyed by request field (`conditions.1.value`), in the contract's words. */
export function segmentErrors(values: SegmentFormValues): Record<string, string> {
  const parsed = SegmentInputSchema.safeParse(toSegmentInput(values));
  const errors: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

/** The conditions as the live count can ask about them; null while one is not finished (nothing to count yet). */
export function segmentDraft(values: Pick<SegmentFormValues, 'match' | 'conditions'>): SegmentDraft | null {
  const draft = { match: values.match, conditions: values.conditions.map(toCondition) };
  const parsed = SegmentInputSchema.pick({ match: true, conditions: true }).safeParse(draft);
  return parsed.success ? parsed.data : null;
}

export const segmentResolver: Resolver<SegmentFormValues, unknown, SegmentInput> = async (values) => {
  const input = toSegmentInput(values);
  const parsed = SegmentInputSchema.safeParse(input);
  if (parsed.success) return { values: parsed.data, errors: {} };
  const nested: FieldErrors<SegmentFormValues> = {};
  // A row's own message first, then its inputs' messages inside it (`conditions.0` before `conditions.0.value`).
  const messages = segmentErrors(values);
  for (const field of Object.keys(messages).sort((a, b) => a.length - b.length)) {
    const error: FieldError = { type: 'validate', message: messages[field] };
    set(nested, field, error);
  }
  return { values: {}, errors: nested };
};
