import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ContactGroup, SignupPage } from '../../api/gen/types.gen';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor } from '../../testing/render';
import SignupPagePage from './signup-page.page';

const group = (name: string, uuid: string, deletable = true): ContactGroup => ({
  uuid,
  name,
  description: null,
  deletable,
  number_of_contacts: 0,
  status: 'Empty',
  headers: [],
  created_at: '2026-11-02 09:30:00',
  updated_at: '2026-11-02 09:30:00',
  links: [],
});
const SUBSCRIBERS = group('Subscribers', '6b0f3a52-0000-4000-8000-000000000001');
const OPTOUTS = group('default_optouts', '6b0f3a52-0000-4000-8000-000000000002', false);

const SAVED: SignupPage = {
  slug: 'acme-texts',
  enabled: true,
  heading: 'Texts from Acme',
  consent_text: 'I agree to receive marketing texts from Acme.',
  frequency_text: 'Up to 4 msgs/week',
  group_uuid: SUBSCRIBERS.uuid,
  ask_first_name: false,
  urls: ['https://herald.example.com/join/acme-texts', 'https://go.acme.example/join/acme-texts'],
  created_at: '2026-11-02 09:30:00',
  updated_at: '2026-11-02 09:30:00',
};

function renderPage(role: 'admin' | 'viewer' = 'admin') {
  return render(
    <Routes>
      <Route path="/signup-page" element={<SignupPagePage />} />
    </Routes>,
    { route: '/signup-page', role },
  );
}

describe('the sign-up page settings', () => {
  it('shows where the page is, with links to open it, and recommends double opt-in', async () => {
    signIn();
    mockApi((_request, url) => (url.pathname === '/api/2.0/team/signup-page' ? json({ data: SAVED }) : json(page([SUBSCRIBERS, OPTOUTS]))));

    renderPage();

    const link = await screen.findByRole('link', { name: /go\.acme\.example\/join\/acme-texts/ });
    expect(link).toHaveAttribute('href', 'https://go.acme.example/join/acme-texts');
    expect(screen.getByRole('link', { name: /herald\.example\.com\/join\/acme-texts/ })).toBeInTheDocument();
    expect(screen.getByText('Every sign-up is confirmed by text')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Address/ })).toHaveValue('acme-texts');
  });

  it('sets up a new page, and shows a taken address beside its field', async () => {
    signIn();
    const puts: unknown[] = [];
    mockApi(async (request, url) => {
      if (url.pathname !== '/api/2.0/team/signup-page') return json(page([SUBSCRIBERS, OPTOUTS]));
      if (request.method === 'GET') return apiError(404, 'The team has no sign-up page yet.');
      puts.push(await request.json());
      return apiError(409, 'Another team’s sign-up page already has this slug; choose another.');
    });

    const { user } = renderPage();

    await user.type(await screen.findByRole('textbox', { name: /Address/ }), 'acme-texts');
    await user.type(screen.getByRole('textbox', { name: /Heading/ }), 'Texts from Acme');
    await user.type(screen.getByRole('textbox', { name: /Consent text/ }), 'I agree.');
    await user.type(screen.getByRole('textbox', { name: /Message frequency/ }), 'Up to 4 msgs/week');
    await user.click(screen.getByRole('combobox', { name: /Group a confirmed number joins/ }));
    expect(screen.queryByRole('option', { name: 'default_optouts' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Subscribers' }));
    await user.click(screen.getByRole('button', { name: 'Save sign-up page' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      slug: 'acme-texts',
      enabled: false,
      heading: 'Texts from Acme',
      consent_text: 'I agree.',
      frequency_text: 'Up to 4 msgs/week',
      group_uuid: SUBSCRIBERS.uuid,
      ask_first_name: false,
    });
    expect(
      await screen.findByText('Another team’s sign-up page already has this slug; choose another.', { selector: '.mantine-InputWrapper-error' }),
    ).toBeInTheDocument();
  });

  it('lets a viewer read the settings but not change them', async () => {
    signIn();
    mockApi((_request, url) => (url.pathname === '/api/2.0/team/signup-page' ? json({ data: SAVED }) : json(page([SUBSCRIBERS]))));

    renderPage('viewer');

    expect(await screen.findByRole('textbox', { name: /Address/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save sign-up page' })).not.toBeInTheDocument();
  });
});
