import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '../../testing/render';
import { WebhookForm } from './webhook-form';

describe('the webhook headers editor', () => {
  it('adds and removes key/value rows, and saves them as an object of headers', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(<WebhookForm submitLabel="Create webhook" onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: /name/i }), 'CRM');
    await user.type(screen.getByRole('textbox', { name: /url/i }), 'https://crm.example.com/hook');
    expect(screen.getByText('No headers.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByRole('textbox', { name: 'Header 1 name' }), 'X-Old');
    await user.type(screen.getByRole('textbox', { name: 'Header 1 value' }), 'gone');
    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByRole('textbox', { name: 'Header 2 name' }), 'Authorization');
    await user.type(screen.getByRole('textbox', { name: 'Header 2 value' }), 'Bearer abc');
    await user.click(screen.getByRole('button', { name: 'Remove header 1' }));

    expect(screen.getByRole('textbox', { name: 'Header 1 name' })).toHaveValue('Authorization');
    expect(screen.queryByRole('textbox', { name: 'Header 2 name' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));

    expect(onSubmit).toHaveBeenCalledWith({ name: 'CRM', url: 'https://crm.example.com/hook', headers: { Authorization: 'Bearer abc' } });
  });

  it('starts from the stored headers and refuses one Herald sets itself', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(
      <WebhookForm
        submitLabel="Save changes"
        defaultValues={{ name: 'CRM', url: 'https://crm.example.com/hook', headers: { 'X-Team': 'blue' } }}
        onSubmit={onSubmit}
      />,
    );

    expect(screen.getByRole('textbox', { name: 'Header 1 name' })).toHaveValue('X-Team');
    expect(screen.getByRole('textbox', { name: 'Header 1 value' })).toHaveValue('blue');
    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByRole('textbox', { name: 'Header 2 name' }), 'Host');
    await user.type(screen.getByRole('textbox', { name: 'Header 2 value' }), 'evil.example.com');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('The Host header is set by Herald and cannot be stored.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Header 2 name' })).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
