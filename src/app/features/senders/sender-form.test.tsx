import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error';
import { render, screen } from '../../testing/render';
import { SenderForm } from './sender-form';

const LENGTH_RULE = 'The sender must be between 3 and 11 characters.';

describe('SenderForm', () => {
  it('explains the 3–11 rule as soon as two characters are typed, and does not submit them', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(<SenderForm submitLabel="Create sender" onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: /sender/i }), 'AB');

    expect(await screen.findByText(LENGTH_RULE)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /sender/i })).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Create sender' }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits a valid sender', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(<SenderForm submitLabel="Create sender" onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: /sender/i }), 'HeraldShop');
    await user.click(screen.getByRole('button', { name: 'Create sender' }));

    expect(onSubmit).toHaveBeenCalledWith({ sender: 'HeraldShop' });
    expect(screen.queryByText(LENGTH_RULE)).not.toBeInTheDocument();
  });

  it('rejects a sender longer than 11 characters', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(<SenderForm submitLabel="Create sender" onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: /sender/i }), 'TwelveLetter');
    await user.click(screen.getByRole('button', { name: 'Create sender' }));

    expect(await screen.findByText(LENGTH_RULE)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the service’s field errors on the field', async () => {
    const taken = new ApiError(422, 'The given data was invalid.', { sender: ['The sender has already been taken.'] });
    const onSubmit = vi.fn().mockRejectedValue(taken);
    const { user } = render(<SenderForm submitLabel="Save" defaultValues={{ sender: 'Herald' }} onSubmit={onSubmit} />);

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The sender has already been taken.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /sender/i })).toHaveAttribute('aria-invalid', 'true');
  });
});
