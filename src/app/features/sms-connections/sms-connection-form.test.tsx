/**
 * A connection's form (issue 34, point 5): the provider comes first and its credential fields follow
 * it, each saying where the value is in the provider's console; every credential of a new connection
 * is required; the service's 422 messages land on the fields they name; an edit keeps the provider,
 * shows each saved credential only as its hint, and sends only the credentials typed.
 *
 * Seen red: with the credential fields drawn from a fixed list (Twilio's) instead of the provider's
 * (Vonage showed Account SID), with the required-credentials check of the form schema removed (the
 * form sent a Twilio connection without its auth token), and with `credentials.*` left out of the
 * server fields (the 422 under `credentials.auth_token` was shown nowhere on the field).
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error';
import { render, screen, waitFor } from '../../testing/render';
import { SmsConnectionForm } from './sms-connection-form';
import { smsConnectionPatch, toSmsConnectionInput, type SmsConnectionFormValues } from './sms-connection-form-schema';
import { smsConnection } from './sms-connection-fixtures';
import { CREDENTIAL_FIELDS, SMS_CONNECTION_CREDENTIALS, SMS_CONNECTION_PROVIDERS } from './sms-connection-providers';

function renderForm(
  onSubmit = vi.fn<(values: SmsConnectionFormValues) => Promise<unknown>>(async () => undefined),
  connection = undefined as Parameters<typeof SmsConnectionForm>[0]['connection'],
) {
  const result = render(<SmsConnectionForm connection={connection} submitLabel="Add connection" onSubmit={onSubmit} />);
  return { ...result, onSubmit };
}

describe('the connection form', () => {
  it('has help for every credential field of every provider, by the contract’s names', () => {
    for (const provider of SMS_CONNECTION_PROVIDERS) {
      expect(CREDENTIAL_FIELDS[provider].map((field) => field.name)).toEqual([...SMS_CONNECTION_CREDENTIALS[provider]]);
      for (const field of CREDENTIAL_FIELDS[provider]) expect(field.help.length).toBeGreaterThan(20);
    }
  });

  it('shows the fields of the provider picked, with where each value is in its console', async () => {
    const { user } = renderForm();
    expect(screen.queryByLabelText(/Account SID/)).toBeNull();

    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'twilio');
    expect(screen.getByRole('textbox', { name: /Account SID/ })).toHaveAccessibleDescription(/Account Info → Account SID/);
    const token = screen.getByLabelText(/Auth Token/);
    expect(token).toHaveAttribute('type', 'password');
    expect(token).toHaveAccessibleDescription(/Account Info → Auth Token/);

    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'vonage');
    expect(screen.queryByLabelText(/Account SID/)).toBeNull();
    expect(screen.getByRole('textbox', { name: /API key/ })).toHaveAccessibleDescription(/API Settings → API key/);
    expect(screen.getByLabelText(/API secret/)).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText(/Signature secret/)).toHaveAccessibleDescription(/API Settings → Signature secret/);

    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'sinch');
    expect(screen.getByRole('textbox', { name: /Service plan ID/ })).toHaveAccessibleDescription(/SMS → APIs → Service plan ID/);
    expect(screen.getByLabelText(/Webhook secret/)).toHaveAttribute('type', 'password');

    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'smpp');
    expect(screen.getByLabelText(/SMPP URL/)).toHaveAccessibleDescription(/smpp:\/\/user:pass@host:port/);
    // An SMPP bind has no API host to point elsewhere.
    expect(screen.queryByRole('button', { name: /Advanced/ })).toBeNull();

    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'simulator');
    expect(screen.queryByRole('group', { name: /credentials/ })).toBeNull();
  });

  it('requires every credential of a new connection, and sends only its provider’s', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    expect(await screen.findByText('Choose the provider.')).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'vonage');
    await user.type(screen.getByRole('textbox', { name: /API key/ }), 'left-over-key');
    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'twilio');
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Twilio UK');
    await user.type(screen.getByRole('textbox', { name: /Account SID/ }), 'AC0123456789abcdef0123456789abcdef');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    expect(await screen.findByText('The auth token is required.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Auth Token/)).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText(/Auth Token/), 'tok-secret-0123456789abcdef');
    await user.type(screen.getByRole('combobox', { name: /Senders/ }), '+447700900001{Enter}Acme{Enter}');
    await user.click(screen.getByRole('button', { name: /Advanced/ }));
    await user.type(screen.getByRole('textbox', { name: /Base URL/ }), 'http://127.0.0.1:4010');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(toSmsConnectionInput(onSubmit.mock.calls[0]![0])).toEqual({
      name: 'Twilio UK',
      provider: 'twilio',
      base_url: 'http://127.0.0.1:4010',
      credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'tok-secret-0123456789abcdef' },
      senders: ['+447700900001', 'Acme'],
      max_per_second: 10,
      enabled: true,
      price_per_segment: null,
    });
  });

  it('shows the service’s 422 on the fields it names, the base URL’s under Advanced opened', async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError(422, 'The given data was invalid.', {
        'credentials.auth_token': ['The credentials.auth_token field is required for twilio.'],
        'senders.1': ['Each sender must be a number (3 to 15 digits, optionally after +) or an ID of 3 to 11 letters.'],
        base_url: ['The base url must be scheme://host[:port] only.'],
      });
    });
    const { user } = renderForm(onSubmit);
    await user.selectOptions(screen.getByRole('combobox', { name: /Provider/ }), 'twilio');
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Twilio UK');
    await user.type(screen.getByRole('textbox', { name: /Account SID/ }), 'AC0123456789abcdef0123456789abcdef');
    await user.type(screen.getByLabelText(/Auth Token/), ' x ');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));

    expect(await screen.findByText('The credentials.auth_token field is required for twilio.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Auth Token/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/Each sender must be a number/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Base URL/ })).toHaveAccessibleDescription(/The base url must be scheme:\/\/host/);
  });

  it('edits with the provider fixed, the saved credentials as hints, and sends only what was typed', async () => {
    const connection = smsConnection();
    const { user, onSubmit } = renderForm(undefined, connection);
    expect(screen.getByRole('combobox', { name: /Provider/ })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /Account SID/ })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: /Account SID/ })).toHaveAttribute('placeholder', '********cdef (saved)');
    expect(screen.getByLabelText(/Auth Token/)).toHaveAttribute('placeholder', '********4f2a (saved)');

    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(smsConnectionPatch(connection, onSubmit.mock.calls[0]![0])).toEqual({});

    await user.type(screen.getByLabelText(/Auth Token/), 'a-new-token-99998888');
    await user.clear(screen.getByRole('textbox', { name: /Name/ }));
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Twilio IE');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    expect(smsConnectionPatch(connection, onSubmit.mock.calls[1]![0])).toEqual({ name: 'Twilio IE', credentials: { auth_token: 'a-new-token-99998888' } });
  });
});
