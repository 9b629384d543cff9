import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '../../testing/render';
import { TemplateForm } from './template-form';

function renderEditor(shortLinks: Record<string, string> = {}) {
  const onSubmit = vi.fn().mockResolvedValue(undefined);
  const result = render(
    <TemplateForm
      senders={['HeraldShop', 'Offers']}
      shortLinks={shortLinks}
      linksEmptyMessage="Links can be added once the template is saved."
      submitLabel="Create template"
      onSubmit={onSubmit}
    />,
  );
  return { ...result, onSubmit, body: screen.getByRole('textbox', { name: /message/i }) };
}

describe('the template editor', () => {
  it('counts segments per keystroke: 160 GSM characters are one SMS, the 161st makes two of 153', async () => {
    const { user, body } = renderEditor();

    await user.click(body);
    await user.paste('a'.repeat(159));
    await user.type(body, 'b');
    expect(screen.getByText('1 segment · 160/160')).toBeInTheDocument();
    expect(screen.getByText('GSM-7')).toBeInTheDocument();

    await user.type(body, 'c');
    expect(screen.getByText('2 segments · 161/306')).toBeInTheDocument();
    expect(screen.getByText('161 / 1,600 characters')).toBeInTheDocument();
    // The preview bubble is cut where the handset receives the second part.
    const preview = screen.getByRole('region', { name: 'Message preview' });
    expect(within(preview).getByRole('group', { name: 'Segment 2 of 2' })).toHaveTextContent(/^Segment 2a{6}bc$/);
  });

  it('switches to Unicode and a 70-character capacity when an emoji is typed', async () => {
    const { user, body } = renderEditor();

    await user.type(body, 'Hi');
    expect(screen.getByText('1 segment · 2/160')).toBeInTheDocument();
    await user.paste(' 😀');

    expect(screen.getByText('Unicode')).toBeInTheDocument();
    // The emoji is two UTF-16 units, as the handset counts it.
    expect(screen.getByText('1 segment · 5/70')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: '😀 (U+1F600) at position 4' })).toBeInTheDocument();
  });

  it('replaces curly quotes with GSM quotes in one click', async () => {
    const { user, body } = renderEditor();

    await user.type(body, '“Hello”');
    expect(screen.getByText('Unicode')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: '“ (U+201C) at position 1' })).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: '” (U+201D) at position 7' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Replace look-alikes' }));

    expect(body).toHaveValue('"Hello"');
    expect(screen.getByText('GSM-7')).toBeInTheDocument();
    expect(screen.queryByText('Unicode')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Replace look-alikes' })).not.toBeInTheDocument();
  });

  it('counts a link as its short link, and warns about a ::NAME:: that names no link', async () => {
    const { user, body } = renderEditor({ SALE: 'https://go.example.com/abc1234' });

    await user.click(screen.getByRole('button', { name: 'Insert link' }));
    await user.click(await screen.findByRole('menuitem', { name: '::SALE::' }));
    expect(body).toHaveValue('::SALE::');
    // https://go.example.com/abc1234 is 30 characters.
    expect(screen.getByText('1 segment · 30/160')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Message preview' })).toHaveTextContent('https://go.example.com/abc1234');

    await user.type(body, ' ::PROMO::');
    expect(screen.getByText('::PROMO:: names no link of this template; it will be sent as a blank space.')).toBeInTheDocument();
    expect(screen.getByText('1 segment · 32/160')).toBeInTheDocument();
  });

  it('inserts a typed field at the cursor and shows it as a placeholder', async () => {
    const { user, body } = renderEditor();

    await user.type(body, 'Hi !');
    await user.keyboard('{ArrowLeft}');
    await user.click(screen.getByRole('button', { name: 'Insert field' }));
    await user.type(await screen.findByRole('textbox', { name: 'Field name' }), 'first_name{Enter}');

    expect(body).toHaveValue('Hi {{first_name}}!');
    expect(screen.getByRole('region', { name: 'Message preview' })).toHaveTextContent('Hi {first_name}!');
    // A field counts as the one space it is sent as without a contact.
    expect(screen.getByText('1 segment · 5/160')).toBeInTheDocument();
  });

  it('explains the sender rule while typing and submits a valid template', async () => {
    const { user, body, onSubmit } = renderEditor();

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Spring sale');
    await user.type(screen.getByRole('combobox', { name: /sender/i }), 'AB');
    expect(await screen.findByText('The sender must be between 3 and 11 characters.')).toBeInTheDocument();
    await user.type(screen.getByRole('combobox', { name: /sender/i }), 'C');
    expect(screen.queryByText('The sender must be between 3 and 11 characters.')).not.toBeInTheDocument();
    await user.type(body, 'Sale now on');
    await user.click(screen.getByRole('button', { name: 'Create template' }));

    expect(onSubmit).toHaveBeenCalledWith({ name: 'Spring sale', sender: 'ABC', body: 'Sale now on', force_utf8: false }, []);
  });

  it('is read-only and says why when a sending campaign locks the template', () => {
    render(
      <TemplateForm
        defaultValues={{ name: 'Spring sale', sender: 'HeraldShop', body: 'Sale now on', force_utf8: false }}
        senders={[]}
        shortLinks={{}}
        linksEmptyMessage=""
        locked
        submitLabel="Save changes"
        onSubmit={vi.fn()}
      />,
    );

    expect(screen.getByText('This template is used by a campaign that is sending; it can be edited when the campaign has finished.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
  });

  // Issue 32: the live preview shows a field's fallback as a contact without the field reads it.
  // Seen red with the preview as it was: it showed the chip "{first_name}", not "there".
  it('shows a field with a fallback as its fallback in the live preview', async () => {
    const { user, body } = renderEditor();
    await user.click(body);
    await user.paste('Hi {{first_name|there}}, and {{city}}!');
    const preview = screen.getByRole('region', { name: 'Message preview' });
    expect(preview).toHaveTextContent('Hi there, and {city}!');
    expect(within(preview).getByTitle("The contact's first_name, or this when they have none")).toHaveTextContent(/^there$/);
  });

  it('warns that nobody can reply to an alphanumeric sender, and not for a number', async () => {
    const { user } = renderEditor();
    const sender = screen.getByRole('combobox', { name: /Sender/ });
    await user.type(sender, '88440');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await user.clear(sender);
    await user.type(sender, 'HeraldShop');
    expect(screen.getByRole('note')).toHaveTextContent('texting STOP or HELP back does not work');
  });
});
