import { describe, expect, it, vi } from 'vitest';
import type { InboundMessage } from '../../api/gen/types.gen';
import { render, screen, within } from '../../testing/render';
import { KeywordTester } from './keyword-tester';

const MATCHED: InboundMessage = {
  uuid: '6d0f6a4e-0c3c-4b8e-8f7e-2b8f5f1f0a01',
  from: '447700900123',
  body: 'JOIN please',
  source: 'api',
  keyword: { uuid: '9b1f3c1e-5a0d-4f55-9c8e-1f6c9a7b2d10', keyword: 'JOIN' },
  opted_out: false,
  actions: [
    { type: 'added_to_group', description: 'Added +447700900123 to Newsletter.', ok: true },
    { type: 'webhook_called', description: 'Called the webhook CRM.', ok: false, status_code: null, error: 'The URL points at a private address.' },
    { type: 'reply_queued', description: 'Queued the reply “Welcome!”.', ok: true },
  ],
  received_at: '2025-03-01 10:00:00',
};

describe('the keyword tester', () => {
  it('sends the number and message, and warns that the actions really happen', async () => {
    const onSubmit = vi.fn().mockResolvedValue(MATCHED);
    const { user } = render(<KeywordTester onSubmit={onSubmit} result={undefined} />);

    expect(screen.getByText('The actions really happen')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /from/i }), '+447700900123');
    await user.type(screen.getByRole('textbox', { name: /message/i }), 'JOIN please');
    await user.click(screen.getByRole('button', { name: 'Send test message' }));

    expect(onSubmit).toHaveBeenCalledWith({ from: '+447700900123', body: 'JOIN please' });
  });

  it('shows the keyword matched and every action, each marked done or failed', () => {
    render(<KeywordTester onSubmit={vi.fn()} result={MATCHED} />);

    const result = screen.getByRole('status', { name: 'Test result' });
    expect(within(result).getByText('JOIN')).toBeInTheDocument();
    const actions = within(within(result).getByRole('list', { name: 'Actions taken' })).getAllByRole('listitem');
    expect(actions.map((item) => item.textContent)).toEqual([
      'Added +447700900123 to Newsletter.',
      'Called the webhook CRM. (The URL points at a private address.)',
      'Queued the reply “Welcome!”.',
    ]);
    expect(within(actions[0]!).getByLabelText('Done')).toBeInTheDocument();
    expect(within(actions[1]!).getByLabelText('Failed')).toBeInTheDocument();
  });

  it('says so when no keyword matched', () => {
    render(<KeywordTester onSubmit={vi.fn()} result={{ ...MATCHED, keyword: null, actions: [] }} />);

    const result = screen.getByRole('status', { name: 'Test result' });
    expect(within(result).getByText('None — no keyword of your team is in this message.')).toBeInTheDocument();
    expect(within(result).getByText('No action')).toBeInTheDocument();
  });
});
