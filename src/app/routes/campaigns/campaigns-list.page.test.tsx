/**
 * The campaigns pages hide what the role cannot do and say why once (issue 18, point 2): a viewer
 * reads the list with no way to create or delete, and the new-campaign route shows the reason
 * instead of a form the service would refuse.
 *
 * Seen red: with `canEdit` forced to true in campaigns-list.page.tsx (the viewer saw "New campaign"
 * and the delete buttons), with <RoleNotice> removed from it (no explanation), and with
 * <RoleRequired> removed from campaign-new.page.tsx (the viewer got the form).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { campaign } from '../../features/campaigns/campaign-fixtures';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import CampaignNewPage from './campaign-new.page';
import CampaignsListPage from './campaigns-list.page';

const VIEWER_NOTE =
  'You have the viewer role in Acme: you can read everything and e-mail reports, but not change anything. An admin of Acme can make you an editor.';

function renderAt(route: string, role: Role) {
  signIn();
  mockApi((_request, url) => json(page(url.pathname === '/api/2.0/campaigns' ? [campaign()] : [])));
  return render(
    <Routes>
      <Route path="/campaigns" element={<CampaignsListPage />} />
      <Route path="/campaigns/new" element={<CampaignNewPage />} />
    </Routes>,
    { route, role },
  );
}

describe('the campaigns pages, by role', () => {
  it('show a viewer the campaigns with no way to create or delete one, and say why', async () => {
    renderAt('/campaigns', 'viewer');

    expect(await screen.findByRole('link', { name: 'Spring sale' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(VIEWER_NOTE);
    expect(screen.queryByRole('link', { name: 'New campaign' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Spring sale' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('let an editor create and delete, with nothing to explain', async () => {
    renderAt('/campaigns', 'editor');

    expect(await screen.findByRole('button', { name: 'Delete Spring sale' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New campaign' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('show a viewer who opens the new-campaign page the reason instead of the form', async () => {
    renderAt('/campaigns/new', 'viewer');

    expect(await screen.findByRole('note')).toHaveTextContent(VIEWER_NOTE);
    expect(screen.getByRole('link', { name: 'Back to campaigns' })).toHaveAttribute('href', '/campaigns');
    expect(screen.queryByRole('button', { name: 'Create campaign' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Name/ })).not.toBeInTheDocument();
  });
});
