/**
 * Managing the inbox's saved replies (issue 36, point 1): from the composer, "Manage saved replies"
 * lists them in a dialog; each is renamed in place (PUT /saved-replies/{uuid} with the new name only)
 * or deleted after a confirmation (DELETE), all by keyboard as well as by pointer.
 *
 * Seen red: with the rename's body sending the reply's old name instead of the field's, the PUT
 * carried "Shipping"; with the delete made without `useConfirmedMutation` (straight `remove.mutate`),
 * "keeps it when the confirmation is declined" sent a DELETE.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SavedReply } from '../../api/gen/types.gen';
import { json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import { SavedRepliesManager } from './saved-replies-manager';

const REPLIES: SavedReply[] = [
  { uuid: 's1', name: 'Shipping', body: 'We ship to Ireland in 2–3 working days.', created_at: '', updated_at: '' },
  { uuid: 's2', name: 'Returns', body: 'You can return anything within 30 days.', created_at: '', updated_at: '' },
];

let calls: Array<{ method: string; path: string; body: unknown }> = [];
function serve() {
  signIn();
  calls = [];
  return mockApi(async (request, url) => {
    const body = request.method === 'PUT' ? await request.json() : undefined;
    calls.push({ method: request.method, path: url.pathname, body });
    if (request.method === 'DELETE') return new Response(null, { status: 204 });
    return json({ data: { ...REPLIES[0], ...(body as object) } });
  });
}

describe('managing saved replies', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists them in a dialog and renames one by keyboard', async () => {
    serve();
    const { user } = render(<SavedRepliesManager savedReplies={REPLIES} />, { role: 'editor' });
    await user.click(screen.getByRole('button', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved replies' });
    const items = within(within(dialog).getByRole('list', { name: 'Saved replies' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([expect.stringContaining('Shipping'), expect.stringContaining('Returns')]);

    await user.click(within(dialog).getByRole('button', { name: 'Rename Shipping' }));
    const field = within(dialog).getByRole('textbox', { name: 'New name' });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, 'Shipping to Ireland{Enter}');
    await waitFor(() => expect(calls).toEqual([{ method: 'PUT', path: '/api/2.0/saved-replies/s1', body: { name: 'Shipping to Ireland' } }]));
    expect(await screen.findByText('Saved reply renamed to Shipping to Ireland.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'New name' })).not.toBeInTheDocument();
  });

  it('leaves a rename with Escape, and sends nothing for an empty name', async () => {
    serve();
    const { user } = render(<SavedRepliesManager savedReplies={REPLIES} />, { role: 'editor' });
    await user.click(screen.getByRole('button', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved replies' });
    await user.click(within(dialog).getByRole('button', { name: 'Rename Returns' }));
    await user.clear(within(dialog).getByRole('textbox', { name: 'New name' }));
    expect(within(dialog).getByRole('button', { name: 'Save the name' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(within(dialog).queryByRole('textbox', { name: 'New name' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Saved replies' })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('deletes one once confirmed, and keeps it when the confirmation is declined', async () => {
    serve();
    const { user } = render(<SavedRepliesManager savedReplies={REPLIES} />, { role: 'editor' });
    await user.click(screen.getByRole('button', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved replies' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Returns' }));
    await user.click(await screen.findByRole('button', { name: 'Keep it' }));
    expect(calls).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Delete Returns' }));
    expect(await screen.findByRole('dialog', { name: 'Delete this saved reply?' })).toHaveTextContent('“Returns” is deleted for everyone in the team.');
    await user.click(screen.getByRole('button', { name: 'Delete saved reply' }));
    await waitFor(() => expect(calls).toEqual([{ method: 'DELETE', path: '/api/2.0/saved-replies/s2', body: undefined }]));
    expect(await screen.findByText('The saved reply Returns was deleted.')).toBeInTheDocument();
  });
});
