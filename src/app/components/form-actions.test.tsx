import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '../testing/render';
import { FormActions } from './form-actions';

describe('the buttons under a form', () => {
  it('submits the form with its label, and cancels when the form can be left', async () => {
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const onCancel = vi.fn();
    const { user } = render(
      <form onSubmit={onSubmit}>
        <FormActions submitLabel="Create sender" submitting={false} onCancel={onCancel} />
      </form>,
    );

    await user.click(screen.getByRole('button', { name: 'Create sender' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('shows no Cancel when there is nowhere to go back to', () => {
    render(<FormActions submitLabel="Add domain" submitting={false} />);
    expect(screen.getByRole('button', { name: 'Add domain' })).toHaveAttribute('type', 'submit');
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('spins the submit button and disables Cancel while saving', () => {
    render(<FormActions submitLabel="Save changes" submitting onCancel={vi.fn()} />);
    const submit = screen.getByRole('button', { name: 'Save changes' });
    expect(submit).toHaveAttribute('data-loading', 'true');
    expect(submit).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });
});
