/**
 * A web address typed into a template's body is offered as a tracked link (issue 19, point 4).
 * Seen red: without the replacement in the form's onTracked, the body keeps the plain address and
 * the body expectation fails; without the notice, no "Track this link" button is found; with the
 * link's modal inside the template's <form>, submitting the link also saved the template (a form in
 * a portal still submits its React parents) and the last expectation failed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VanityDomain } from '../../api/gen/types.gen';
import { TrackUrlModal } from '../../features/links/track-url-modal';
import { TemplateForm } from '../../features/templates/template-form';
import { json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';

const DOMAIN: VanityDomain = {
  uuid: '7d0f3a52-1c2b-4c1e-9d7a-3f5e8b2a6c10',
  domain: 'go.herald.test',
  url_base: 'https://go.herald.test',
  is_default: true,
  status: '1',
  created_at: '2026-11-01 09:00:00',
  updated_at: '2026-11-01 09:00:00',
  links: [],
};

const TEMPLATE_UUID = '0b9c4e1a-6f3d-4a8e-b2c7-5d1e9f0a3b24';

function renderEditor(tracking?: { templateUuid: string; vanityDomains: VanityDomain[] }, shortLinks: Record<string, string> = {}) {
  const onSubmit = vi.fn().mockResolvedValue(undefined);
  const result = render(
    <TemplateForm
      senders={['HeraldShop']}
      shortLinks={shortLinks}
      linksEmptyMessage="No links yet."
      renderLinkTracker={tracking && ((props) => <TrackUrlModal {...props} {...tracking} />)}
      submitLabel="Save changes"
      onSubmit={onSubmit}
    />,
  );
  return { ...result, onSubmit, body: screen.getByRole('textbox', { name: /message/i }) };
}

afterEach(() => vi.unstubAllGlobals());

describe('plain web addresses in the template editor', () => {
  it('turns an address into a tracked link: ::NAME:: takes the address’s place, and the link goes with the next save', async () => {
    signIn();
    const posted: unknown[] = [];
    mockApi((request, url) => {
      if (request.method === 'POST') posted.push(url.pathname);
      return json({ data: [] });
    });
    const { user, body, onSubmit } = renderEditor({ templateUuid: TEMPLATE_UUID, vanityDomains: [DOMAIN] }, { SALE: 'https://go.herald.test/aB3dE' });

    // A template that could be saved: a link form submitted inside it must not save it too.
    await user.type(screen.getByRole('textbox', { name: /^name/i }), 'Spring');
    await user.type(screen.getByRole('combobox', { name: /sender/i }), 'HeraldShop');
    await user.click(body);
    await user.paste('Spring sale: https://shop.example.com/sale. Again: https://shop.example.com/sale');
    const notice = screen.getByRole('alert', { name: 'A plain web address' });
    await user.click(within(notice).getByRole('button', { name: 'Track https://shop.example.com/sale as a link' }));

    const dialog = await screen.findByRole('dialog', { name: 'Track this link' });
    // SALE is taken by the template's other link.
    expect(within(dialog).getByRole('textbox', { name: /name/i })).toHaveValue('SALE2');
    expect(within(dialog).getByRole('textbox', { name: /destination/i })).toHaveValue('https://shop.example.com/sale');
    await user.click(within(dialog).getByRole('button', { name: 'Add link and use it' }));

    await vi.waitFor(() => expect(body).toHaveValue('Spring sale: ::SALE2::. Again: ::SALE2::'));
    expect(screen.queryByRole('alert', { name: /plain web address/i })).not.toBeInTheDocument();
    // The link's own form is submitted, not the template's, and nothing is created before the save.
    expect(onSubmit).not.toHaveBeenCalled();
    expect(posted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await vi.waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ body: 'Spring sale: ::SALE2::. Again: ::SALE2::' }), [
        { template_uuid: TEMPLATE_UUID, vanity_domain_uuid: DOMAIN.uuid, name: 'SALE2', destination: 'https://shop.example.com/sale' },
      ]),
    );
  });

  it('before the template exists, says the address can be tracked once it is created', async () => {
    const { user, body } = renderEditor();
    await user.click(body);
    await user.paste('See www.example.com');
    const notice = screen.getByRole('alert', { name: 'A plain web address' });
    expect(within(notice).getByText('www.example.com')).toBeInTheDocument();
    expect(within(notice).queryByRole('button')).not.toBeInTheDocument();
    expect(notice).toHaveTextContent('Once the template is created, each address can become a tracked link.');
  });
});
