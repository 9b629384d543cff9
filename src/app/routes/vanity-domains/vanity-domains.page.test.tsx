import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { VanityDomain } from '../../api/gen/types.gen';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import VanityDomainsPage from './vanity-domains.page';

function domain(name: string, uuid: string, isDefault = false): VanityDomain {
  return {
    uuid,
    domain: name,
    url_base: isDefault ? `http://${name}` : `https://${name}`,
    is_default: isDefault,
    status: '1',
    created_at: '2026-11-02 09:30:00',
    updated_at: '2026-11-02 09:30:00',
    links: [],
  };
}

const OWN = domain('herald.example.com/l', '6b0f3a52-0000-4000-8000-000000000001', true);
const GO = domain('go.example.com', '6b0f3a52-0000-4000-8000-000000000002');

function renderPage() {
  return render(
    <Routes>
      <Route path="/vanity-domains" element={<VanityDomainsPage />} />
    </Routes>,
    { route: '/vanity-domains', role: 'admin' },
  );
}

describe('the vanity domains page', () => {
  it("marks Herald's own domain and offers no way to change it", async () => {
    signIn();
    mockApi(() => json(page([OWN, GO])));

    renderPage();

    const table = await screen.findByRole('table', { name: 'Vanity domains' });
    const ownRow = within(table).getByRole('row', { name: /herald\.example\.com/ });
    expect(within(ownRow).getByText("Herald's own domain")).toBeInTheDocument();
    expect(within(ownRow).queryByRole('button')).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Edit go.example.com' })).toBeInTheDocument();
    expect(within(table).getByText('https://go.example.com/…')).toBeInTheDocument();
  });

  it('says in a toast why the service refused a deletion (409)', async () => {
    signIn();
    mockApi((request) =>
      request.method === 'DELETE' ? apiError(409, 'The vanity domain is used by 2 links; move or delete them first.') : json(page([OWN, GO])),
    );

    const { user } = renderPage();

    await user.click(await screen.findByRole('button', { name: 'Delete go.example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete vanity domain' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete domain' }));

    expect(await screen.findByText('The vanity domain is used by 2 links; move or delete them first.')).toBeInTheDocument();
    expect(screen.getByText('The vanity domain go.example.com could not be deleted')).toBeInTheDocument();
  });
});
