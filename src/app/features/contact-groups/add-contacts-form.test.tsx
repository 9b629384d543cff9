import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error';
import { render, screen } from '../../testing/render';
import { AddContactsForm } from './add-contacts-form';

describe('AddContactsForm', () => {
  it('sends every row with its custom fields', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(<AddContactsForm headers={['first_name']} onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: 'Phone number 1' }), '+447700900123');
    await user.type(screen.getByRole('textbox', { name: 'first_name 1' }), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Add another contact' }));
    await user.type(screen.getByRole('textbox', { name: 'Phone number 2' }), '07700900456');
    await user.click(screen.getByRole('button', { name: 'Add 2 contacts' }));

    expect(onSubmit).toHaveBeenCalledWith([
      { phone_number: '+447700900123', custom_fields: { first_name: 'Ada' } },
      { phone_number: '07700900456', custom_fields: { first_name: '' } },
    ]);
  });

  it('shows the service’s error for a row next to that row only', async () => {
    const refused = new ApiError(422, 'The given data was invalid.', {
      'contacts.1.phone_number': ['The phone number 12 is not a valid phone number.'],
    });
    const onSubmit = vi.fn().mockRejectedValue(refused);
    const { user } = render(<AddContactsForm headers={[]} onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: 'Phone number 1' }), '+447700900123');
    await user.click(screen.getByRole('button', { name: 'Add another contact' }));
    await user.type(screen.getByRole('textbox', { name: 'Phone number 2' }), '12');
    await user.click(screen.getByRole('button', { name: 'Add 2 contacts' }));

    expect(await screen.findByText('The phone number 12 is not a valid phone number.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Phone number 2' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Phone number 1' })).not.toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).toHaveBeenCalledWith([{ phone_number: '+447700900123' }, { phone_number: '12' }]);
  });

  it('asks for a number in every row before sending', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(<AddContactsForm headers={[]} onSubmit={onSubmit} />);

    await user.click(screen.getByRole('button', { name: 'Add contact' }));

    expect(await screen.findByText('Enter a phone number.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
