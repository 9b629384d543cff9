/**
 * The Contacts page (issue 20, point 4, in the dashboard): the search and the page live in the URL
 * (read from it, sent with the request, written back after a pause in typing, from the first page),
 * each number links to its page and its groups to theirs, default_optouts reads as "Opted out"
 * rather than as a group, and an empty team and a search that finds nothing say different things.
 *
 * Seen red: with the debounce taken out of useDirectorySearch (a request per letter typed: "A",
 * "Ad", "Ada"), with `updated.delete('page')` removed (the search kept page 3, past its results),
 * and with isOptOutGroup reading `default_optout` (the badge was gone and default_optouts was listed
 * as a group).
 */
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ADA_NUMBER, directoryContact, NEWSLETTER_GROUP, OPTOUTS, VIP_GROUP } from '../../features/contacts-directory/contacts-directory.fixtures';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import ContactsListPage from './contacts-list.page';

const ADA = directoryContact(ADA_NUMBER, [NEWSLETTER_GROUP, VIP_GROUP, OPTOUTS]);
const GRACE = directoryContact('447700900456', [NEWSLETTER_GROUP]);

function LocationProbe() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function serve(answer: (url: URL) => Response = () => json(page([ADA, GRACE]))) {
  signIn();
  return mockApi((_request, url) => (url.pathname === '/api/2.0/contacts' ? answer(url) : apiError(404, 'Unexpected request')));
}

/** The searches asked of the service, as their query strings. */
function searches(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls.map(([request]) => Object.fromEntries(new URL(request.url).searchParams));
}

function renderAt(route: string) {
  return render(
    <Routes>
      <Route
        path="/contacts"
        element={
          <>
            <ContactsListPage />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    // Every role reads the directory.
    { route, role: 'viewer' },
  );
}

const location = () => new URLSearchParams(screen.getByTestId('location').textContent ?? '');

describe('the Contacts page', { timeout: 20_000 }, () => {
  it('sends the search and page of the URL, and lists each number with its groups and opt-out state', async () => {
    const fetchMock = serve(() => json(page([ADA, GRACE], { current_page: 2, per_page: 25, total: 27 })));
    renderAt('/contacts?search=Ada&page=2&per_page=25');

    const table = await screen.findByRole('table', { name: 'Contacts' });
    expect(searches(fetchMock)).toEqual([{ page: '2', per_page: '25', search: 'Ada' }]);
    expect(screen.getByRole('textbox', { name: /Search/ })).toHaveValue('Ada');
    expect(screen.getByText('26–27 of 27 contacts')).toBeInTheDocument();

    const [ada, grace] = within(table).getAllByRole('row').slice(1);
    expect(within(ada!).getByRole('link', { name: '+447700900123' })).toHaveAttribute('href', '/contacts/447700900123');
    expect(within(ada!).getByRole('link', { name: 'VIP customers' })).toHaveAttribute('href', `/contact-groups/${VIP_GROUP.uuid}`);
    expect(within(ada!).getByRole('link', { name: 'Newsletter' })).toHaveAttribute('href', `/contact-groups/${NEWSLETTER_GROUP.uuid}`);
    // default_optouts is the opt-out state, not one of the groups.
    expect(within(ada!).queryByRole('link', { name: 'default_optouts' })).not.toBeInTheDocument();
    expect(within(ada!).getAllByText('Opted out').length).toBeGreaterThan(0);
    expect(within(grace!).queryByText('Opted out')).not.toBeInTheDocument();
    expect(within(grace!).getByText('No')).toBeInTheDocument();
  });

  it('searches once the typing pauses, from the first page, and keeps the search in the URL', async () => {
    const fetchMock = serve((url) => json(page(url.searchParams.get('search') ? [ADA] : [ADA, GRACE])));
    const { user } = renderAt('/contacts?page=3');
    await screen.findByRole('table', { name: 'Contacts' });

    await user.type(screen.getByRole('textbox', { name: /Search/ }), 'Ada');

    await waitFor(() => expect(location().get('search')).toBe('Ada'));
    expect(location().get('page')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('link', { name: '+447700900456' })).not.toBeInTheDocument());
    // One request for the whole word, not one per letter.
    expect(searches(fetchMock)).toEqual([
      { page: '3', per_page: '15' },
      { page: '1', per_page: '15', search: 'Ada' },
    ]);

    await user.clear(screen.getByRole('textbox', { name: /Search/ }));
    await waitFor(() => expect(location().has('search')).toBe(false));
    expect(await screen.findByRole('link', { name: '+447700900456' })).toBeInTheDocument();
  });

  it('says when a search finds nothing, and when the team has no contacts at all', async () => {
    serve(() => json(page([])));
    const searched = renderAt('/contacts?search=nobody');
    expect(await screen.findByText('No contact matches')).toBeInTheDocument();
    expect(screen.getByText('No number or field value in your groups contains “nobody”.')).toBeInTheDocument();
    searched.unmount();

    renderAt('/contacts');
    expect(await screen.findByText('No contacts yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to contact groups' })).toHaveAttribute('href', '/contact-groups');
  });

  it('says when the contacts could not be loaded, with the service’s reason', async () => {
    serve(() => apiError(422, 'The search may not be greater than 100 characters.', { search: ['The search may not be greater than 100 characters.'] }));
    renderAt('/contacts?search=x');
    expect(await screen.findByText('The contacts could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('The search may not be greater than 100 characters.')).toBeInTheDocument();
  });
});
