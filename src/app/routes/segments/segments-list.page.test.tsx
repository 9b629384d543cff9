/**
 * The segments list (issue 35, point 1): each segment by name with its description and a summary of
 * its conditions, linked to its page; an editor has "New segment", a viewer the sentence that says
 * why not. With none yet, the empty state says what a segment is for.
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { segment } from '../../features/segments/segment-fixtures';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import SegmentsListPage from './segments-list.page';

function renderPage(
  role: Role,
  segments = [
    segment(),
    segment({
      uuid: '7a3c0e55-0000-4000-8000-000000000002',
      name: 'Birthdays',
      description: '',
      match: 'any',
      conditions: [{ type: 'field', field: 'birthday', op: 'anniversary_within_days', value: 14 }],
    }),
  ],
) {
  signIn();
  mockApi(() => json(page(segments)));
  return render(
    <Routes>
      <Route path="/segments" element={<SegmentsListPage />} />
    </Routes>,
    { route: '/segments', role },
  );
}

describe('the segments list', () => {
  it('lists the segments with their conditions, and offers an editor a new one', async () => {
    renderPage('editor');
    const table = await screen.findByRole('table', { name: 'Segments' });
    const recent = within(table).getByRole('row', { name: /Recent clickers/ });
    expect(within(recent).getByRole('link', { name: 'Recent clickers' })).toHaveAttribute('href', '/segments/7a3c0e55-0000-4000-8000-000000000001');
    expect(recent).toHaveTextContent('All of 2 conditions');
    expect(within(table).getByRole('row', { name: /Birthdays/ })).toHaveTextContent('1 condition');
    expect(screen.getByRole('link', { name: 'New segment' })).toHaveAttribute('href', '/segments/new');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('tells a viewer why there is no New segment', async () => {
    renderPage('viewer');
    await screen.findByRole('table', { name: 'Segments' });
    expect(screen.queryByRole('link', { name: 'New segment' })).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(/You have the viewer role/);
  });

  it('says what a segment is for when there is none', async () => {
    renderPage('editor', []);
    expect(await screen.findByText('No segments yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New segment' }).length).toBeGreaterThan(0);
  });
});
