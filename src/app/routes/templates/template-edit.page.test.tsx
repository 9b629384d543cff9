import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Template } from '../../api/gen/types.gen';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import TemplateEditPage from './template-edit.page';

const UUID = '9c7e2f10-0000-4000-8000-000000000001';
const LOCKED = 'This template is used by a campaign that is sending; it can be edited when the campaign has finished.';

function template(isLocked: boolean): Template {
  return {
    uuid: UUID,
    name: 'Spring sale',
    body: 'Sale now on',
    links: [],
    is_locked: isLocked,
    sender: 'HeraldShop',
    created_at: '2026-11-02 09:30:00',
    updated_at: '2026-11-02 09:30:00',
  };
}

function renderPage() {
  return render(
    <Routes>
      <Route path="/templates/:uuid" element={<TemplateEditPage />} />
    </Routes>,
    { route: `/templates/${UUID}`, role: 'editor' },
  );
}

describe('the template editor page', () => {
  it('becomes read-only and says why when the service answers 423 to a save', async () => {
    signIn();
    let locked = false;
    mockApi((request, url) => {
      if (request.method === 'PUT') {
        locked = true;
        return apiError(423, 'The template is used by a campaign that is sending; it cannot be changed until the campaign has finished.');
      }
      if (url.pathname === `/api/2.0/templates/${UUID}`) return json({ data: template(locked) });
      return json(page([]));
    });

    const { user } = renderPage();

    const body = await screen.findByRole('textbox', { name: /message/i });
    await user.type(body, '!');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const lockAlert = await screen.findByRole('status', { name: 'Locked while sending' });
    expect(lockAlert).toHaveTextContent(LOCKED);
    expect(screen.getByRole('textbox', { name: /message/i })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(screen.getByText('The template is locked')).toBeInTheDocument();
  });

  it('opens a locked template read-only, with the reason', async () => {
    signIn();
    mockApi((_request, url) => (url.pathname === `/api/2.0/templates/${UUID}` ? json({ data: template(true) }) : json(page([]))));

    renderPage();

    expect(await screen.findByRole('status', { name: 'Locked while sending' })).toHaveTextContent(LOCKED);
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add link' })).toBeDisabled();
  });
});
