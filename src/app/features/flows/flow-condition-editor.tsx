import { Autocomplete, Select, SimpleGrid, Stack, Text, TextInput, type ComboboxItem } from '@mantine/core';
import { FIELD_OPS, VALUELESS_FIELD_OPS, type FieldOp, type FlowCondition } from '../../../shared/contract';
import { useFlowEditor } from './flow-editor-context';

/**
 * A branch's condition, for the kinds a flow asks most (docs/flows.md): the last message replied to
 * or clicked, in a segment or a group, a contact field. A saved condition of another segment kind
 * (country, behaviour, a group of conditions) is kept as it is and described, not edited here.
 */

type Kind = 'replied' | 'clicked' | 'segment' | 'group' | 'field' | 'other';

const KIND_OPTIONS: { value: Kind; label: string }[] = [
  { value: 'clicked', label: 'Clicked the link in the last message' },
  { value: 'replied', label: 'Replied since the last message' },
  { value: 'segment', label: 'Is in a segment' },
  { value: 'group', label: 'Is in a contact group' },
  { value: 'field', label: 'A contact field' },
];

const FIELD_OP_WORDS: Record<FieldOp, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
  gt: 'is greater than',
  lt: 'is less than',
  before: 'is a date before (YYYY-MM-DD)',
  after: 'is a date after (YYYY-MM-DD)',
  within_last_days: 'is a date within the last … days',
  within_next_days: 'is a date within the next … days',
  anniversary_within_days: 'comes round within the next … days',
};
const FIELD_OP_OPTIONS = FIELD_OPS.map((op) => ({ value: op, label: FIELD_OP_WORDS[op] }));
const MEMBERSHIP_OPTIONS = [
  { value: 'in', label: 'is in' },
  { value: 'not_in', label: 'is not in' },
];

function kindOf(condition: FlowCondition): Kind {
  if (condition.type === 'last_message') return condition.event;
  if (condition.type === 'segment' || condition.type === 'group' || condition.type === 'field') return condition.type;
  return 'other';
}

function conditionOf(kind: Kind): FlowCondition {
  switch (kind) {
    case 'replied':
    case 'clicked':
      return { type: 'last_message', event: kind };
    case 'segment':
      return { type: 'segment', op: 'in', segment_uuid: '' };
    case 'group':
      return { type: 'group', op: 'in', group_uuid: '' };
    default:
      return { type: 'field', field: '', op: 'equals', value: '' };
  }
}

const OTHER_WORDS: Record<string, string> = {
  country: 'the country of the number',
  event: 'what the number did with the team’s campaigns',
  group_of_conditions: 'a group of conditions',
};

interface FlowConditionEditorProps {
  condition: FlowCondition;
  /** The request path of the condition, e.g. `steps.2.condition`. */
  path: string;
  onChange: (condition: FlowCondition) => void;
}

export function FlowConditionEditor({ condition, path, onChange }: FlowConditionEditorProps) {
  const { pickers, errorAt } = useFlowEditor();
  const kind = kindOf(condition);
  const options = kind === 'other' ? [...KIND_OPTIONS, { value: 'other' as const, label: 'Another segment condition (kept as saved)' }] : KIND_OPTIONS;
  const conditionError = errorAt(path);

  return (
    <Stack gap="xs">
      <Select
        label="Condition"
        data={options}
        value={kind}
        allowDeselect={false}
        onChange={(value) => value && value !== kind && onChange(conditionOf(value as Kind))}
        error={kind === 'segment' || kind === 'group' || kind === 'field' ? undefined : conditionError}
      />
      {condition.type === 'segment' && (
        <MembershipFields
          op={condition.op}
          onOp={(op) => onChange({ ...condition, op })}
          label="Segment"
          placeholder="Choose a segment"
          data={pickers.segments}
          value={condition.segment_uuid}
          onValue={(uuid) => onChange({ ...condition, segment_uuid: uuid })}
          error={errorAt(`${path}.segment_uuid`)}
        />
      )}
      {condition.type === 'group' && (
        <MembershipFields
          op={condition.op}
          onOp={(op) => onChange({ ...condition, op })}
          label="Contact group"
          placeholder="Choose a group"
          data={pickers.groups}
          value={condition.group_uuid}
          onValue={(uuid) => onChange({ ...condition, group_uuid: uuid })}
          error={errorAt(`${path}.group_uuid`)}
        />
      )}
      {condition.type === 'field' && (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Autocomplete
            label="Field"
            placeholder="e.g. city"
            data={pickers.fieldSuggestions as string[]}
            value={condition.field}
            onChange={(field) => onChange({ ...condition, field })}
            error={errorAt(`${path}.field`)}
          />
          <Select
            label="Test"
            data={FIELD_OP_OPTIONS}
            value={condition.op}
            allowDeselect={false}
            onChange={(op) => {
              if (!op) return;
              const valueless = VALUELESS_FIELD_OPS.has(op as FieldOp);
              onChange({ ...condition, op: op as FieldOp, value: valueless ? undefined : (condition.value ?? '') });
            }}
          />
          {!VALUELESS_FIELD_OPS.has(condition.op) && (
            <TextInput
              label="Value"
              value={String(condition.value ?? '')}
              onChange={(event) => onChange({ ...condition, value: event.currentTarget.value })}
              error={errorAt(`${path}.value`)}
            />
          )}
        </SimpleGrid>
      )}
      {kind === 'clicked' && (
        <Text size="xs" c="dimmed">
          True when a person opened a tracked link (::NAME::) of the run’s last message.
        </Text>
      )}
      {kind === 'replied' && (
        <Text size="xs" c="dimmed">
          True when the number texted the team since the run’s last message was sent.
        </Text>
      )}
      {kind === 'other' && (
        <Text size="sm">Tests {OTHER_WORDS[condition.type] ?? condition.type}, as saved through the API. Choose another condition to replace it.</Text>
      )}
    </Stack>
  );
}

interface MembershipFieldsProps {
  op: 'in' | 'not_in';
  onOp: (op: 'in' | 'not_in') => void;
  label: string;
  placeholder: string;
  data: readonly ComboboxItem[];
  value: string;
  onValue: (uuid: string) => void;
  error: string | undefined;
}

/** "The number is in / is not in" one of the team's segments or groups. */
function MembershipFields({ op, onOp, label, placeholder, data, value, onValue, error }: MembershipFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Select label="The number" data={MEMBERSHIP_OPTIONS} value={op} allowDeselect={false} onChange={(next) => next && onOp(next as 'in' | 'not_in')} />
      <Select label={label} placeholder={placeholder} searchable data={data} value={value || null} onChange={(uuid) => onValue(uuid ?? '')} error={error} />
    </SimpleGrid>
  );
}
