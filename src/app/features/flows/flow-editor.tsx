import {
  ActionIcon,
  Alert,
  Autocomplete,
  Badge,
  Box,
  Button,
  Group,
  List,
  Menu,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertCircle, IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { FLOW_STEP_TYPES, FLOW_TRIGGER_TYPES, type FlowInput, type FlowStep, type FlowTriggerType } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { FormActions } from '../../components/form-actions';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard';
import { formatCount } from '../../lib/format';
import {
  addStep,
  checkFlowInput,
  emptyStep,
  emptyTrigger,
  findStep,
  moveStep,
  NEW_FLOW,
  removeStep,
  toFlowInput,
  updateStep,
  type Arm,
  type DraftStep,
  type FlowDraft,
  type ListOwner,
  type WaitUnit,
} from './flow-draft';
import { FlowConditionEditor } from './flow-condition-editor';
import { FlowEditorContext, useFlowEditor, type FlowEditorActions, type FlowPickers } from './flow-editor-context';
import { STEP_LABELS, TRIGGER_LABELS, type FlowNames } from './flow-labels';

interface FlowEditorProps {
  defaultValue?: FlowDraft;
  pickers: FlowPickers;
  names: FlowNames;
  submitLabel: string;
  /** Saves the flow; a rejection carrying 422 field errors shows them at the fields they name (`steps.1.then.0.template_uuid`). */
  onSubmit: (input: FlowInput) => Promise<unknown>;
  onCancel?: () => void;
  /** A viewer's view: every input read-only, no buttons. */
  readOnly?: boolean;
  /** The saved flow's steps as last read: the cards show their counts as they move, not as they were when the editor opened. */
  liveSteps?: readonly FlowStep[];
}

const TRIGGER_OPTIONS = FLOW_TRIGGER_TYPES.map((type) => ({ value: type, label: TRIGGER_LABELS[type] }));
const REENTRY_OPTIONS = [
  { value: 'after_end', label: 'Again, once its run has ended' },
  { value: 'never', label: 'Never: once per number' },
];
const WAIT_UNITS = [
  { value: 'minutes', label: 'minutes' },
  { value: 'hours', label: 'hours' },
  { value: 'days', label: 'days' },
];

/** Where a 422's path points, in words: `steps.1.then.0.template_uuid` → "Step 2, then step 1". */
export function placeOf(path: string): string {
  const parts = path.split('.');
  if (parts[0] === 'name') return 'Name';
  if (parts[0] === 'trigger') return 'Trigger';
  if (parts[0] === 'enabled' || parts[0] === 'reentry') return 'Settings';
  if (parts[0] !== 'steps' || parts[1] === undefined || !/^\d+$/.test(parts[1])) return parts[0] === 'steps' ? 'Steps' : 'The flow';
  let place = `Step ${Number(parts[1]) + 1}`;
  for (let at = 2; at + 1 < parts.length && (parts[at] === 'then' || parts[at] === 'else') && /^\d+$/.test(parts[at + 1]!); at += 2) {
    place += `, ${parts[at] === 'then' ? 'then' : 'otherwise'} step ${Number(parts[at + 1]) + 1}`;
  }
  return place;
}

/**
 * The vertical step editor (issue 36, point 2): the flow's name, trigger and settings, then its steps
 * as a list of cards that are added, moved up or down and removed with buttons (no dragging), a
 * branch's `then` and `else` nested under it and edited the same way. Each saved step shows its
 * counts. The contract's check runs before the request; the API's 422 lands on the same fields.
 */
export function FlowEditor({ defaultValue = NEW_FLOW, pickers, names, submitLabel, onSubmit, onCancel, readOnly = false, liveSteps }: FlowEditorProps) {
  const [draft, setDraft] = useState<FlowDraft>(defaultValue);
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [rootError, setRootError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  /** The id of the button to focus after a move or a removal (the card moved, or is gone, and the focus with it). */
  const focusTarget = useRef<string[] | null>(null);
  const idPrefix = useId();

  useEffect(() => {
    if (!focusTarget.current) return;
    // The first of the ids whose button can take the focus (a step moved to the top has no "up" any more).
    const target = focusTarget.current.map((id) => document.getElementById(id)).find((element) => element && !element.hasAttribute('disabled'));
    target?.focus();
    focusTarget.current = null;
  });

  const change = useCallback((next: (draft: FlowDraft) => FlowDraft) => {
    setDraft(next);
    setDirty(true);
  }, []);

  const actions = useMemo<FlowEditorActions>(
    () => ({
      pickers,
      names,
      readOnly,
      statsOf: (step) => (step.id && liveSteps ? findStep(liveSteps, step.id)?.stats : undefined) ?? step.stats,
      errorAt: (path) => errors[path]?.[0],
      update: (key, update) => change((current) => ({ ...current, steps: updateStep(current.steps, key, update) })),
      remove: (key) => {
        change((current) => ({ ...current, steps: removeStep(current.steps, key) }));
        focusTarget.current = [`${idPrefix}-add-steps`];
      },
      move: (key, by) => {
        change((current) => ({ ...current, steps: moveStep(current.steps, key, by) }));
        focusTarget.current = [`${idPrefix}-${key}-${by < 0 ? 'up' : 'down'}`, `${idPrefix}-${key}-${by < 0 ? 'down' : 'up'}`];
      },
      add: (owner, type) => change((current) => ({ ...current, steps: addStep(current.steps, owner, emptyStep(type)) })),
    }),
    [pickers, names, readOnly, liveSteps, errors, change, idPrefix],
  );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = toFlowInput(draft);
    const found = checkFlowInput(input);
    setRootError(undefined);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      await onSubmit(input);
      setDirty(false);
    } catch (error) {
      if (!isApiError(error)) throw error;
      setErrors(error.fieldErrors);
      setRootError(error.message);
    } finally {
      setSubmitting(false);
    }
  };

  const trigger = draft.trigger;
  const problems = Object.entries(errors).flatMap(([path, messages]) => messages.map((message) => ({ path, message })));

  return (
    <FlowEditorContext.Provider value={actions}>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Flow">
        {/* A viewer's view: the browser disables every input and button inside. */}
        <Box component="fieldset" disabled={readOnly} m={0} p={0} style={{ border: 0, minWidth: 0 }}>
          <Stack gap="lg">
            <TextInput
              label="Name"
              description="Shown in the flows list and on the contact page."
              withAsterisk
              autoComplete="off"
              value={draft.name}
              onChange={(event) => {
                const name = event.currentTarget.value;
                change((current) => ({ ...current, name }));
              }}
              error={errors.name?.[0]}
            />
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`${idPrefix}-trigger`}>
              <Stack gap="sm">
                <Title order={2} size="h4" id={`${idPrefix}-trigger`}>
                  Trigger
                </Title>
                <Select
                  label="Starts when"
                  data={TRIGGER_OPTIONS}
                  value={trigger.type}
                  allowDeselect={false}
                  onChange={(type) => type && type !== trigger.type && change((current) => ({ ...current, trigger: emptyTrigger(type as FlowTriggerType) }))}
                  error={errors['trigger']?.[0] ?? errors['trigger.type']?.[0]}
                />
                {trigger.type === 'keyword' && (
                  <Select
                    label="Keyword"
                    placeholder="Choose a keyword"
                    searchable
                    data={pickers.keywords}
                    value={trigger.keyword_uuid || null}
                    onChange={(uuid) => change((current) => ({ ...current, trigger: { type: 'keyword', keyword_uuid: uuid ?? '' } }))}
                    error={errors['trigger.keyword_uuid']?.[0]}
                    nothingFoundMessage="No keyword: add one on the Keywords page"
                  />
                )}
                {trigger.type === 'group_joined' && (
                  <Select
                    label="Contact group"
                    description="However the number is added: the API, an import, a keyword, a flow, the sign-up page."
                    placeholder="Choose a group"
                    searchable
                    data={pickers.groups}
                    value={trigger.group_uuid || null}
                    onChange={(uuid) => change((current) => ({ ...current, trigger: { type: 'group_joined', group_uuid: uuid ?? '' } }))}
                    error={errors['trigger.group_uuid']?.[0]}
                  />
                )}
                {trigger.type === 'segment_entered' && (
                  <Select
                    label="Segment"
                    description="Looked at every minute; those in it when the flow starts looking did not enter it."
                    placeholder="Choose a segment"
                    searchable
                    data={pickers.segments}
                    value={trigger.segment_uuid || null}
                    onChange={(uuid) => change((current) => ({ ...current, trigger: { type: 'segment_entered', segment_uuid: uuid ?? '' } }))}
                    error={errors['trigger.segment_uuid']?.[0]}
                  />
                )}
                {trigger.type === 'anniversary' && (
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                    <Autocomplete
                      label="Date field"
                      description="A contact field holding a date YYYY-MM-DD, e.g. birthday."
                      data={pickers.fieldSuggestions as string[]}
                      value={trigger.field}
                      onChange={(field) => change((current) => ({ ...current, trigger: { ...trigger, field } }))}
                      error={errors['trigger.field']?.[0]}
                    />
                    <TextInput
                      label="At"
                      description="The time of day, in the team’s zone."
                      type="time"
                      value={trigger.at}
                      onChange={(event) => {
                        const at = event.currentTarget.value;
                        change((current) => ({ ...current, trigger: { ...trigger, at } }));
                      }}
                      error={errors['trigger.at']?.[0]}
                    />
                  </SimpleGrid>
                )}
                {trigger.type === 'conversion' && (
                  <Text size="sm" c="dimmed">
                    Starts for the order’s number (else the number of the message the order is credited to) whenever a conversion is recorded.
                  </Text>
                )}
                {trigger.type === 'api' && (
                  <Text size="sm" c="dimmed">
                    Starts only through POST /api/2.0/flows/&#123;uuid&#125;/runs, or the test with your number.
                  </Text>
                )}
              </Stack>
            </Paper>
            <Group gap="xl" align="flex-start" wrap="wrap">
              <Switch
                label="Enabled"
                description="A disabled flow starts no run from its trigger, and disabling it ends the runs under way (a test run goes on)."
                checked={draft.enabled}
                onChange={(event) => {
                  const enabled = event.currentTarget.checked;
                  change((current) => ({ ...current, enabled }));
                }}
                maw={320}
              />
              <Select
                label="A number may run it"
                description="Never more than one active run per number."
                data={REENTRY_OPTIONS}
                value={draft.reentry}
                allowDeselect={false}
                onChange={(reentry) => reentry && change((current) => ({ ...current, reentry: reentry as FlowDraft['reentry'] }))}
                w={280}
              />
            </Group>
            <Stack component="section" aria-labelledby={`${idPrefix}-steps`} gap="sm">
              <Title order={2} size="h4" id={`${idPrefix}-steps`}>
                Steps
              </Title>
              <StepList steps={draft.steps} owner={null} prefix="steps" titlePrefix="" label="Steps" addId={`${idPrefix}-add-steps`} idPrefix={idPrefix} />
              {errors.steps?.[0] && (
                <Text size="sm" c="red" role="alert">
                  {errors.steps[0]}
                </Text>
              )}
            </Stack>
          </Stack>
        </Box>
        {!readOnly && (
          <Stack gap="sm" mt="lg">
            {problems.length > 0 && (
              <Alert color="red" variant="light" icon={<IconAlertCircle />} role="alert" title={rootError ?? 'The flow cannot be saved yet'}>
                <List size="sm">
                  {problems.map(({ path, message }) => (
                    <List.Item key={`${path}:${message}`}>
                      {placeOf(path)}: {message}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {problems.length === 0 && rootError && (
              <Alert color="red" variant="light" icon={<IconAlertCircle />} role="alert">
                {rootError}
              </Alert>
            )}
            <FormActions submitLabel={submitLabel} submitting={submitting} onCancel={onCancel} />
          </Stack>
        )}
        <UnsavedChangesGuard when={dirty && !submitting} what="this flow" />
      </form>
    </FlowEditorContext.Provider>
  );
}

interface StepListProps {
  steps: DraftStep[];
  owner: ListOwner;
  /** The request path of the list: `steps`, `steps.2.then`. */
  prefix: string;
  /** The words before each step's number: "" at the top ("Step 1"), "Step 2, then " inside a branch. */
  titlePrefix: string;
  label: string;
  addId?: string;
  idPrefix: string;
}

function StepList({ steps, owner, prefix, titlePrefix, label, addId, idPrefix }: StepListProps) {
  const { readOnly } = useFlowEditor();
  return (
    <Stack gap="sm">
      {steps.length === 0 ? (
        <Text size="sm" c="dimmed">
          {owner === null ? 'No steps yet: a run would end at once. Add the first step.' : 'No steps: the run goes on with the steps after the branch.'}
        </Text>
      ) : (
        <Stack gap="sm" component="ol" aria-label={label} m={0} p={0} style={{ listStyle: 'none' }}>
          {steps.map((step, index) => (
            <StepCard
              key={step.key}
              step={step}
              path={`${prefix}.${index}`}
              title={`${titlePrefix}${titlePrefix ? 'step' : 'Step'} ${index + 1}`}
              first={index === 0}
              last={index === steps.length - 1}
              idPrefix={idPrefix}
            />
          ))}
        </Stack>
      )}
      {!readOnly && <AddStepMenu owner={owner} label={label} id={addId} />}
    </Stack>
  );
}

function AddStepMenu({ owner, label, id }: { owner: ListOwner; label: string; id?: string }) {
  const { add } = useFlowEditor();
  return (
    <Group>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button id={id} variant="default" size={owner ? 'xs' : 'sm'} leftSection={<IconPlus size={14} />} aria-label={`Add a step to ${label.toLowerCase()}`}>
            Add a step
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {FLOW_STEP_TYPES.map((type) => (
            <Menu.Item key={type} onClick={() => add(owner, type)}>
              {STEP_LABELS[type]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/** The step's counts, from `stats` (a new step has none yet). */
function StepCounts({ step }: { step: DraftStep }) {
  const stats = useFlowEditor().statsOf(step);
  if (!stats) return null;
  const { entered, sent, clicked, exited } = stats;
  const counts: [string, number][] =
    step.type === 'send'
      ? [
          ['entered', entered],
          ['sent', sent],
          ['clicked', clicked],
          ['exited', exited],
        ]
      : [
          ['entered', entered],
          ['exited', exited],
        ];
  return (
    <Group gap={6} wrap="wrap" aria-label="Counts">
      {counts.map(([name, value]) => (
        <Badge key={name} variant="light" color={name === 'exited' ? 'gray' : 'indigo'} tt="none" size="sm">
          {formatCount(value)} {name}
        </Badge>
      ))}
    </Group>
  );
}

interface StepCardProps {
  step: DraftStep;
  path: string;
  title: string;
  first: boolean;
  last: boolean;
  idPrefix: string;
}

function StepCard({ step, path, title, first, last, idPrefix }: StepCardProps) {
  const { update, remove, move, readOnly, errorAt } = useFlowEditor();
  const headingId = useId();
  const stepError = errorAt(path) ?? errorAt(`${path}.type`);
  const heading = `${title}: ${STEP_LABELS[step.type]}`;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      aria-labelledby={headingId}
      data-step-type={step.type}
      style={stepError ? { borderColor: 'var(--mantine-color-error)' } : undefined}
    >
      <Stack gap="xs" role="group" aria-labelledby={headingId}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" id={headingId}>
              {heading}
            </Text>
            <StepCounts step={step} />
          </Stack>
          {!readOnly && (
            <Group gap={4} wrap="nowrap">
              <CardButton id={`${idPrefix}-${step.key}-up`} label={`Move ${title.toLowerCase()} up`} disabled={first} onClick={() => move(step.key, -1)}>
                <IconArrowUp size={16} />
              </CardButton>
              <CardButton id={`${idPrefix}-${step.key}-down`} label={`Move ${title.toLowerCase()} down`} disabled={last} onClick={() => move(step.key, 1)}>
                <IconArrowDown size={16} />
              </CardButton>
              <CardButton label={`Remove ${title.toLowerCase()}`} color="red" onClick={() => remove(step.key)}>
                <IconTrash size={16} />
              </CardButton>
            </Group>
          )}
        </Group>
        {stepError && (
          <Text size="sm" c="red">
            {stepError}
          </Text>
        )}
        <StepFields step={step} path={path} title={title} update={(next) => update(step.key, () => next)} idPrefix={idPrefix} />
      </Stack>
    </Paper>
  );
}

function CardButton({
  id,
  label,
  disabled,
  color,
  onClick,
  children,
}: {
  id?: string;
  label: string;
  disabled?: boolean;
  color?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon id={id} variant="subtle" color={color} aria-label={label} disabled={disabled} onClick={onClick}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

function StepFields({
  step,
  path,
  title,
  update,
  idPrefix,
}: {
  step: DraftStep;
  path: string;
  title: string;
  update: (step: DraftStep) => void;
  idPrefix: string;
}) {
  const { pickers, errorAt } = useFlowEditor();
  switch (step.type) {
    case 'send':
      return (
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label="Template"
              placeholder="Choose a template"
              searchable
              data={pickers.templates}
              value={step.template_uuid || null}
              onChange={(uuid) => update({ ...step, template_uuid: uuid ?? '' })}
              error={errorAt(`${path}.template_uuid`)}
              nothingFoundMessage="No template: add one on the Templates page"
            />
            <TextInput
              label="Sender"
              placeholder="The template’s (optional)"
              value={step.sender}
              onChange={(event) => update({ ...step, sender: event.currentTarget.value })}
              error={errorAt(`${path}.sender`)}
            />
          </SimpleGrid>
          <Switch
            label="Transactional"
            description="Not marketing (an order update, a code): the team’s frequency caps skip it. Leave it off for offers."
            checked={step.transactional}
            onChange={(event) => update({ ...step, transactional: event.currentTarget.checked })}
          />
        </Stack>
      );
    case 'wait':
      return (
        <Stack gap="xs">
          <SegmentedControl
            aria-label={`How ${title.toLowerCase()} waits`}
            value={step.mode}
            onChange={(mode) => update({ ...step, mode: mode as 'duration' | 'until' })}
            data={[
              { value: 'duration', label: 'For a while' },
              { value: 'until', label: 'Until a time of day' },
            ]}
            style={{ alignSelf: 'flex-start' }}
          />
          {step.mode === 'duration' ? (
            <Group gap="sm" align="flex-start" wrap="wrap">
              <NumberInput
                label="Wait for"
                min={1}
                allowDecimal={false}
                value={step.amount}
                onChange={(amount) => update({ ...step, amount })}
                error={errorAt(`${path}.minutes`)}
                w={140}
              />
              <Select
                label="Unit"
                data={WAIT_UNITS}
                value={step.unit}
                allowDeselect={false}
                onChange={(unit) => unit && update({ ...step, unit: unit as WaitUnit })}
                w={140}
              />
            </Group>
          ) : (
            <TextInput
              label="Until"
              description="The next time the recipient’s clock shows it, in the number’s zone."
              type="time"
              value={step.until_time}
              onChange={(event) => update({ ...step, until_time: event.currentTarget.value })}
              error={errorAt(`${path}.until_time`) ?? errorAt(`${path}.minutes`)}
              w={220}
            />
          )}
        </Stack>
      );
    case 'add_to_group':
    case 'remove_from_group':
      return (
        <Select
          label="Contact group"
          placeholder="Choose a group"
          searchable
          data={pickers.groups}
          value={step.group_uuid || null}
          onChange={(uuid) => update({ ...step, group_uuid: uuid ?? '' })}
          error={errorAt(`${path}.group_uuid`)}
        />
      );
    case 'webhook':
      return (
        <TextInput
          label="URL"
          description="Herald POSTs the run to it once, signed with the flow’s signing secret."
          placeholder="https://example.com/hooks/flow"
          value={step.url}
          onChange={(event) => update({ ...step, url: event.currentTarget.value })}
          error={errorAt(`${path}.url`)}
        />
      );
    case 'end':
      return (
        <Text size="sm" c="dimmed">
          The run is completed here.
        </Text>
      );
    case 'branch':
      return (
        <Stack gap="sm">
          <FlowConditionEditor condition={step.condition} path={`${path}.condition`} onChange={(condition) => update({ ...step, condition })} />
          {(['then', 'else'] as const).map((arm: Arm) => (
            <Stack key={arm} gap="xs" pl="sm" style={{ borderLeft: '3px solid var(--mantine-color-indigo-3)' }}>
              <Text size="sm" fw={600}>
                {arm === 'then' ? 'Then (the condition holds)' : 'Otherwise'}
              </Text>
              <StepList
                steps={step[arm]}
                owner={{ branch: step.key, arm }}
                prefix={`${path}.${arm}`}
                titlePrefix={`${title}, ${arm === 'then' ? 'then' : 'otherwise'} `}
                label={`${title}, ${arm === 'then' ? 'then' : 'otherwise'}`}
                idPrefix={idPrefix}
              />
            </Stack>
          ))}
        </Stack>
      );
  }
}
