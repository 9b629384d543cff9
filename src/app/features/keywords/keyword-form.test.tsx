import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '../../testing/render';
import { KeywordForm } from './keyword-form';

const GROUPS = [{ value: '3f1c1c7e-1d2b-4e9a-8f00-000000000001', label: 'Newsletter' }];
const WEBHOOKS = [
  { value: '3f1c1c7e-1d2b-4e9a-8f00-00000000000a', label: 'CRM sign-ups' },
  { value: '3f1c1c7e-1d2b-4e9a-8f00-00000000000b', label: 'Slack alerts' },
];
const WEBHOOK_RULE = 'The webhooks uuid field is required when call webhook is true.';
const GROUP_RULE = 'The contact groups uuid field is required when add contact to group is true.';

function renderForm() {
  const onSubmit = vi.fn().mockResolvedValue(undefined);
  const result = render(<KeywordForm contactGroups={GROUPS} webhooks={WEBHOOKS} submitLabel="Create keyword" onSubmit={onSubmit} />);
  return { ...result, onSubmit };
}

describe('KeywordForm', () => {
  it('shows the rule when "Call webhooks" is on with no webhook picked, and saves once one is picked by name', async () => {
    const { user, onSubmit } = renderForm();

    await user.type(screen.getByRole('textbox', { name: /keyword/i }), 'OFFERS');
    await user.click(screen.getByRole('switch', { name: 'Call webhooks' }));
    expect(await screen.findByText(WEBHOOK_RULE)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create keyword' }));
    expect(onSubmit).not.toHaveBeenCalled();

    await user.click(screen.getByRole('combobox', { name: 'Webhooks' }));
    await user.click(await screen.findByRole('option', { name: 'Slack alerts' }));
    expect(screen.queryByText(WEBHOOK_RULE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create keyword' }));

    expect(onSubmit).toHaveBeenCalledWith({
      keyword: 'OFFERS',
      message: '',
      help: '',
      add_contact_to_group: false,
      call_webhook: true,
      contact_groups_uuid: [],
      webhooks_uuid: [WEBHOOKS[1]?.value],
    });
  });

  it('shows the rule when "Add the number to groups" is on with no group, and hides the picker again when switched off', async () => {
    const { user, onSubmit } = renderForm();

    await user.type(screen.getByRole('textbox', { name: /keyword/i }), 'JOIN');
    await user.click(screen.getByRole('switch', { name: 'Add the number to groups' }));
    expect(await screen.findByText(GROUP_RULE)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Contact groups' })).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Add the number to groups' }));
    expect(screen.queryByText(GROUP_RULE)).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Contact groups' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create keyword' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ keyword: 'JOIN', add_contact_to_group: false, contact_groups_uuid: [] }));
  });

  it('refuses an opt-out word as a keyword', async () => {
    const { user, onSubmit } = renderForm();

    await user.type(screen.getByRole('textbox', { name: /keyword/i }), 'stop');
    await user.click(screen.getByRole('button', { name: 'Create keyword' }));

    expect(await screen.findByText('The keyword is reserved for opt-outs (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT).')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
