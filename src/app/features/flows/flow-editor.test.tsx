/**
 * The flows' vertical step editor (issue 36, point 2): steps are added, moved up and down and removed
 * with buttons (no dragging), a branch's `then` and `else` are nested lists edited the same way, each
 * saved step shows its counts, and what is saved keeps every saved step's `id` (so its counts, history
 * and waiting runs stay) without the editor's own keys or the counts. The contract's messages, the
 * editor's own check or the API's 422 (`steps.2.then.0.template_uuid`), show at the field they name.
 *
 * Seen red: with the ids left out of the request (`stepInput` without `id`), the saved steps went
 * back without them; with the send step's template input not reading its message at its path, neither
 * the contract's message nor the API's 422 for the nested template showed on its card.
 */
import { describe, expect, it, vi } from 'vitest';
import type { FlowInput } from '../../../shared/contract';
import { ApiError } from '../../api/api-error';
import type { Flow } from '../../api/gen/types.gen';
import { render, screen, within } from '../../testing/render';
import { flowDraft } from './flow-draft';
import { FlowEditor } from './flow-editor';
import type { FlowPickers } from './flow-editor-context';
import { NO_NAMES } from './flow-labels';

const JOIN = '11111111-1111-4111-8111-111111111111';
const WELCOME = '22222222-2222-4222-8222-222222222222';
const REMINDER = '33333333-3333-4333-8333-333333333333';
const VIP = '44444444-4444-4444-8444-444444444444';

const PICKERS: FlowPickers = {
  keywords: [{ value: JOIN, label: 'JOIN' }],
  groups: [{ value: VIP, label: 'VIP customers' }],
  segments: [],
  templates: [
    { value: WELCOME, label: 'Welcome' },
    { value: REMINDER, label: 'Reminder' },
  ],
  fieldSuggestions: ['first_name', 'birthday'],
};

const stats = (entered: number, sent = 0, clicked = 0, exited = 0) => ({ entered, sent, clicked, exited });

export const WELCOME_FLOW: Flow = {
  uuid: '55555555-5555-4555-8555-555555555555',
  name: 'Welcome series',
  trigger: { type: 'keyword', keyword_uuid: JOIN },
  enabled: true,
  reentry: 'after_end',
  steps: [
    { id: 's_send', type: 'send', template_uuid: WELCOME, stats: stats(12, 11, 4, 1) },
    { id: 's_wait', type: 'wait', minutes: 1440, stats: stats(11) },
    {
      id: 's_branch',
      type: 'branch',
      condition: { type: 'last_message', event: 'clicked' },
      then: [{ id: 's_vip', type: 'add_to_group', group_uuid: VIP, stats: stats(4) }],
      else: [],
      stats: stats(10),
    },
  ],
  runs: { active: 3, completed: 8, exited: 1 },
  links: [],
  created_at: '2026-11-20 09:00:00',
  updated_at: '2026-11-20 09:00:00',
} as unknown as Flow;

function renderEditor(onSubmit = vi.fn<(input: FlowInput) => Promise<unknown>>().mockResolvedValue(undefined), readOnly = false) {
  const rendered = render(
    <FlowEditor defaultValue={flowDraft(WELCOME_FLOW)} pickers={PICKERS} names={NO_NAMES} submitLabel="Save flow" onSubmit={onSubmit} readOnly={readOnly} />,
  );
  return { ...rendered, onSubmit };
}

type User = ReturnType<typeof renderEditor>['user'];
const card = (name: string) => screen.getByRole('group', { name });
/** The steps' titles in the order of the page (depth first). */
const titles = () =>
  screen.getAllByRole('listitem').map((item) => item.getAttribute('data-step-type') + ':' + within(item).getAllByText(/^Step /)[0]!.textContent);

async function addStep(user: User, list: string, type: string) {
  await user.click(screen.getByRole('button', { name: `Add a step to ${list}` }));
  await user.click(await screen.findByRole('menuitem', { name: type }));
}

async function choose(user: User, scope: HTMLElement, label: string, option: string) {
  await user.click(within(scope).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the flow step editor', { timeout: 60_000 }, () => {
  it('shows each saved step’s counts', () => {
    renderEditor();
    expect(within(card('Step 1: Send a template')).getByLabelText('Counts')).toHaveTextContent('12 entered11 sent4 clicked1 exited');
    expect(within(card('Step 2: Wait')).getByLabelText('Counts')).toHaveTextContent('11 entered0 exited');
    expect(within(card('Step 3, then step 1: Add to a group')).getByLabelText('Counts')).toHaveTextContent('4 entered');
  });

  it('adds, moves and removes steps, in the flow and in a branch, and saves them with their ids', async () => {
    const { user, onSubmit } = renderEditor();

    // A reminder in the branch's "otherwise", and an end at the bottom of the flow.
    await addStep(user, 'step 3, otherwise', 'Send a template');
    await choose(user, card('Step 3, otherwise step 1: Send a template'), 'Template', 'Reminder');
    await addStep(user, 'step 3, then', 'End');
    await addStep(user, 'steps', 'End');

    // The nested end moves above the nested group step, within its own list only.
    await user.click(screen.getByRole('button', { name: 'Move step 3, then step 2 up' }));
    expect(screen.getByRole('group', { name: 'Step 3, then step 1: End' })).toBeInTheDocument();
    // The focus stays on the moved step's button (now first in its list: its "down").
    expect(screen.getByRole('button', { name: 'Move step 3, then step 1 down' })).toHaveFocus();

    // The wait moves below the branch; the send is removed.
    await user.click(screen.getByRole('button', { name: 'Move step 2 down' }));
    expect(card('Step 3: Wait')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove step 1' }));
    expect(titles().map((title) => title.split(':')[0])).toEqual(['branch', 'end', 'add_to_group', 'send', 'wait', 'end']);

    await user.click(screen.getByRole('button', { name: 'Save flow' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      name: 'Welcome series',
      trigger: { type: 'keyword', keyword_uuid: JOIN },
      enabled: true,
      reentry: 'after_end',
      steps: [
        {
          id: 's_branch',
          type: 'branch',
          condition: { type: 'last_message', event: 'clicked' },
          then: [{ type: 'end' }, { id: 's_vip', type: 'add_to_group', group_uuid: VIP }],
          else: [{ type: 'send', template_uuid: REMINDER }],
        },
        { id: 's_wait', type: 'wait', minutes: 1440 },
        { type: 'end' },
      ],
    });
  });

  it('edits a wait, a transactional send and a branch’s condition in the contract’s shape', async () => {
    const { user, onSubmit } = renderEditor();
    const wait = card('Step 2: Wait');
    await user.click(within(wait).getByRole('radio', { name: 'Until a time of day' }));
    const until = within(wait).getByLabelText('Until', { selector: 'input[type=time]' });
    await user.clear(until);
    await user.type(until, '09:30');
    await user.click(within(card('Step 1: Send a template')).getByRole('switch', { name: /Transactional/ }));
    await choose(user, card('Step 3: Branch on a condition'), 'Condition', 'Replied since the last message');

    await user.click(screen.getByRole('button', { name: 'Save flow' }));
    const steps = onSubmit.mock.calls[0]![0].steps;
    expect(steps[0]).toEqual({ id: 's_send', type: 'send', template_uuid: WELCOME, transactional: true });
    expect(steps[1]).toEqual({ id: 's_wait', type: 'wait', until_time: '09:30' });
    expect(steps[2]).toMatchObject({ id: 's_branch', condition: { type: 'last_message', event: 'replied' } });
  });

  it('shows the contract’s messages at their fields before sending, and the API’s 422 at a nested field', async () => {
    const onSubmit = vi.fn<(input: FlowInput) => Promise<unknown>>();
    const { user } = renderEditor(onSubmit);
    await addStep(user, 'step 3, then', 'Send a template');
    await user.click(screen.getByRole('button', { name: 'Save flow' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const nested = card('Step 3, then step 2: Send a template');
    expect(within(nested).getByRole('combobox', { name: 'Template' })).toHaveAccessibleDescription(/template/i);
    expect(screen.getByRole('alert')).toHaveTextContent('Step 3, then step 2:');

    onSubmit.mockRejectedValueOnce(
      new ApiError(422, 'The given data was invalid.', { 'steps.2.then.1.template_uuid': ['The template_uuid names no template of the team.'] }),
    );
    await choose(user, nested, 'Template', 'Reminder');
    await user.click(screen.getByRole('button', { name: 'Save flow' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(await within(nested).findByText('The template_uuid names no template of the team.')).toBeInTheDocument();
  });

  it('is read-only for a viewer: no buttons, every input disabled', () => {
    renderEditor(undefined, true);
    expect(screen.queryByRole('button', { name: /Add a step|Move|Remove|Save flow/ })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Name/ })).toBeDisabled();
    expect(within(card('Step 1: Send a template')).getByRole('combobox', { name: 'Template' })).toBeDisabled();
  });
});
