/**
 * The segment builder (issue 35, point 1): conditions of every type are built from labelled inputs
 * that fit their op, each reads as its sentence once complete, one level of groups nests, and what is
 * sent is the contract's shape (only the type's keys). The contract's messages show on the inputs they
 * name, whether the form found them or the service's 422 did (`conditions.0.value`).
 *
 * Seen red: with the value kept when the op changes to one of another kind (the days typed for
 * “comes round within” went on as a date, and the message said “must be a date” instead of “required”),
 * and with a message only read at the input's own path (the 422's `conditions.1.values.0` was not
 * shown on the countries input).
 */
import { describe, expect, it, vi } from 'vitest';
import type { SegmentDraft } from './segment-form-values';
import { render, screen, within } from '../../testing/render';
import { ApiError } from '../../api/api-error';
import { SegmentForm } from './segment-form';
import type { SegmentPickers } from './condition-editor';
import { segmentFormValues } from './segment-form-values';

const VIP = '11111111-1111-4111-8111-111111111111';
const SUMMER = '22222222-2222-4222-8222-222222222222';

const PICKERS: SegmentPickers = {
  fieldSuggestions: ['first_name', 'birthday', 'city'],
  groups: { data: [{ value: VIP, label: 'VIP' }] },
  campaigns: { data: [{ value: SUMMER, label: 'Summer sale' }] },
};

function renderForm(onSubmit = vi.fn().mockResolvedValue(undefined), defaultValues?: Parameters<typeof SegmentForm>[0]['defaultValues']) {
  const drafts: Array<SegmentDraft | null> = [];
  const rendered = render(
    <SegmentForm
      pickers={PICKERS}
      submitLabel="Create segment"
      onSubmit={onSubmit}
      defaultValues={defaultValues}
      aside={(draft) => {
        drafts.push(draft);
        return null;
      }}
    />,
  );
  return { ...rendered, onSubmit, drafts };
}

type User = ReturnType<typeof renderForm>['user'];
const row = (name: string) => screen.getByRole('group', { name });
const rowOf = (name: string) => () => row(name);
/** Pastes the text as a person would type it (typing key by key is slow under jsdom and proves nothing more here). */
async function fill(user: User, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

async function choose(user: User, scope: () => HTMLElement, label: string | RegExp, option: string | RegExp) {
  await user.click(within(scope()).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the segment builder', { timeout: 60_000 }, () => {
  it('builds a field condition and a behaviour condition, each read as a sentence, and sends the contract’s shape', async () => {
    const { user, onSubmit, drafts } = renderForm();

    await fill(user, screen.getByRole('textbox', { name: /Name/ }), 'Ann clickers');
    const first = rowOf('Condition 1');
    await fill(user, within(first()).getByRole('combobox', { name: 'Field' }), 'first_name');
    await choose(user, first, 'Comparison', 'contains');
    await fill(user, within(first()).getByRole('textbox', { name: 'Value' }), 'ann');
    expect(within(first()).getByTestId('condition-sentence')).toHaveTextContent('Reads: First name contains “ann”');

    await user.click(screen.getByRole('button', { name: 'Add a condition' }));
    const second = rowOf('Condition 2');
    await choose(user, second, 'Type', 'Behaviour');
    await choose(user, second, 'Campaign', 'Summer sale');
    await fill(user, within(second()).getByRole('textbox', { name: 'In the last … days' }), '7');
    expect(within(second()).getByTestId('condition-sentence')).toHaveTextContent('Clicked a link in “Summer sale” in the last 7 days');

    expect(drafts.at(-1)).toEqual({
      match: 'all',
      conditions: [
        { type: 'field', field: 'first_name', op: 'contains', value: 'ann' },
        { type: 'event', event: 'clicked', campaign_uuid: SUMMER, within_days: 7 },
      ],
    });
    await user.click(screen.getByRole('radio', { name: 'Any condition' }));
    await user.click(screen.getByRole('button', { name: 'Create segment' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Ann clickers',
      description: '',
      match: 'any',
      conditions: [
        { type: 'field', field: 'first_name', op: 'contains', value: 'ann' },
        { type: 'event', event: 'clicked', campaign_uuid: SUMMER, within_days: 7 },
      ],
    });
  });

  it('fits the value input to the op: a number, a date, days, or none', async () => {
    const { user, onSubmit } = renderForm();
    await fill(user, screen.getByRole('textbox', { name: /Name/ }), 'Fields');
    const first = rowOf('Condition 1');
    await fill(user, within(first()).getByRole('combobox', { name: 'Field' }), 'age');
    await choose(user, first, 'Comparison', 'is greater than');
    await fill(user, within(first()).getByRole('textbox', { name: 'Number' }), '30');
    expect(within(first()).getByTestId('condition-sentence')).toHaveTextContent('Age is greater than 30');

    await choose(user, first, 'Comparison', 'is empty');
    expect(within(first()).queryByRole('textbox', { name: 'Number' })).not.toBeInTheDocument();
    expect(within(first()).getByTestId('condition-sentence')).toHaveTextContent('Age is empty');

    await choose(user, first, 'Comparison', /comes round within the next/);
    await user.clear(within(first()).getByRole('textbox', { name: 'Days' }));
    await fill(user, within(first()).getByRole('textbox', { name: 'Days' }), '14');
    await user.clear(within(first()).getByRole('combobox', { name: 'Field' }));
    await fill(user, within(first()).getByRole('combobox', { name: 'Field' }), 'birthday');
    expect(within(first()).getByTestId('condition-sentence')).toHaveTextContent('Birthday within the next 14 days');

    await choose(user, first, 'Comparison', 'is a date before');
    // A native date input: the browser writes the picked day as YYYY-MM-DD.
    const date = within(first()).getByLabelText('Date');
    expect(date).toHaveAttribute('type', 'date');

    await user.click(screen.getByRole('button', { name: 'Create segment' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(within(first()).getByText(/The value field is required for before/)).toBeInTheDocument();
  });

  it('picks a group and countries, and nests a group of conditions one level', async () => {
    const { user, onSubmit } = renderForm();
    await fill(user, screen.getByRole('textbox', { name: /Name/ }), 'Nested');
    const first = rowOf('Condition 1');
    await choose(user, first, 'Type', 'Contact group');
    await choose(user, first, 'Membership', 'Is not in the group');
    await choose(user, first, 'Group', 'VIP');
    expect(within(first()).getByTestId('condition-sentence')).toHaveTextContent('Is not in the group “VIP”');

    await user.click(screen.getByRole('button', { name: 'Add a condition' }));
    const second = rowOf('Condition 2');
    await choose(user, second, 'Type', 'Group of conditions');
    // A row inside a group offers no deeper group.
    const inner = rowOf('Condition 2.1');
    await user.click(within(inner()).getByRole('combobox', { name: 'Type' }));
    expect(screen.queryByRole('option', { name: 'Group of conditions' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Country of the number' }));
    await fill(user, within(inner()).getByRole('combobox', { name: 'Countries' }), 'Ireland');
    await user.click(await screen.findByRole('option', { name: 'Ireland (IE)' }));
    expect(within(inner()).getByTestId('condition-sentence')).toHaveTextContent('Number is in Ireland');

    await user.click(within(second()).getByRole('button', { name: 'Add a condition to this group' }));
    const innerSecond = rowOf('Condition 2.2');
    await choose(user, innerSecond, 'Type', 'Behaviour');
    await choose(user, innerSecond, 'What they did', 'Had a message fail');
    await choose(user, innerSecond, 'Reason', 'Expired without a receipt');
    expect(within(innerSecond()).getByTestId('condition-sentence')).toHaveTextContent('Had a message of any campaign fail (expired without a receipt)');

    await user.click(screen.getByRole('button', { name: 'Create segment' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({
        conditions: [
          { type: 'group', op: 'not_in', group_uuid: VIP },
          {
            type: 'group_of_conditions',
            match: 'any',
            conditions: [
              { type: 'country', op: 'in', values: ['IE'] },
              { type: 'event', event: 'failed', reason_class: 'expired' },
            ],
          },
        ],
      }),
    );
  });

  it('removes a condition, and keeps the last one', async () => {
    const { user } = renderForm();
    expect(within(row('Condition 1')).queryByRole('button', { name: 'Remove condition 1' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a condition' }));
    await fill(user, within(row('Condition 2')).getByRole('combobox', { name: 'Field' }), 'city');
    await user.click(screen.getByRole('button', { name: 'Remove condition 1' }));
    expect(screen.queryByRole('group', { name: 'Condition 2' })).not.toBeInTheDocument();
    expect(within(row('Condition 1')).getByRole('combobox', { name: 'Field' })).toHaveValue('city');
  });

  it('shows the service’s 422 messages on the inputs they name', async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValue(
        new ApiError(422, 'The given data was invalid.', { 'conditions.1.values.0': ['Each country must be an ISO 3166 alpha-2 code in capitals (GB).'] }),
      );
    const { user } = renderForm(
      onSubmit,
      segmentFormValues({
        name: 'Saved',
        match: 'all',
        conditions: [
          { type: 'field', field: 'city', op: 'equals', value: 'Leeds' },
          { type: 'country', op: 'in', values: ['GB'] },
        ],
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Create segment' }));
    expect(await within(row('Condition 2')).findByText('Each country must be an ISO 3166 alpha-2 code in capitals (GB).')).toBeInTheDocument();
  });
});
