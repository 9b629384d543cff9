/**
 * The Team page's settings (issues 18 and 19): each card sends only its own fields — sending safety
 * (the confirm threshold, and the approval rule's null, 0 or N), the cost estimate (null for none),
 * quiet hours (null when off) with the team's time zone, and the three automatic replies — after
 * checking what it can, and puts the service's 422 on the field it names (dotted names such as
 * `quiet_hours.end` included). The read-only view for other roles is in team.page.test.tsx.
 *
 * Seen red: with the approval choice sending `Number('')` for "No approval needed" (0 instead of
 * null), with the quiet hours switch left out of quietHoursInput (the period was sent when off),
 * and with `quiet_hours.end` missing from the quiet hours form's field names (the message went
 * only to the toast). Test numbers (issue 32): with `test_numbers.1` missing from the form's field
 * names, the 422 went only to the toast.
 */
import { describe, expect, it } from 'vitest';
import type { TeamSettings } from '../../api/gen/types.gen';
import type { Role } from '../../lib/roles';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { TeamSettingsSection } from './team-settings-section';
import { NEW_TEAM_SETTINGS } from '../../testing/team-settings';

// Each test renders several forms and types into them: on a busy machine that takes seconds.
const SLOW = { timeout: 20_000 };

const SETTINGS = NEW_TEAM_SETTINGS;

/** GET and PUT /team/settings as the service answers them; `answer` replaces the PUT's answer. */
function serve({
  threshold = null,
  answer,
  settings: overrides = {},
}: { threshold?: number | null; answer?: () => Response; settings?: Partial<TeamSettings> } = {}) {
  signIn();
  const sent: unknown[] = [];
  let settings: TeamSettings = { ...SETTINGS, approval_threshold: threshold, ...overrides };
  mockApi(async (request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path !== '/team/settings') return apiError(404, `Not mocked: ${request.method} ${path}`);
    if (request.method === 'GET') return json({ data: settings });
    const body = (await request.json()) as Partial<TeamSettings>;
    sent.push(body);
    if (answer) return answer();
    settings = { ...settings, ...body };
    return json({ data: settings });
  });
  return { changes: () => sent.map((body) => ({ body })) };
}

function renderPage(role: Role = 'admin') {
  return render(<TeamSettingsSection canChange={role === 'admin'} />, { role });
}

describe('sending safety', SLOW, () => {
  async function save(user: ReturnType<typeof renderPage>['user']) {
    await user.click(within(screen.getByRole('form', { name: 'Sending safety' })).getByRole('button', { name: 'Save sending safety' }));
  }

  it('shows the saved rule: N recipients', async () => {
    serve({ threshold: 500 });
    renderPage();

    expect(await screen.findByRole('radio', { name: 'Campaigns of at least N recipients' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: /N, the number of recipients/ })).toHaveValue('500');
    expect(screen.getByRole('textbox', { name: /Confirm the recipient count from/ })).toHaveValue('1,000');
  });

  it('sends 0 for every campaign, N for at least N recipients, and null for none, with the confirm threshold', async () => {
    const { changes } = serve({ threshold: null });
    const { user } = renderPage();

    expect(await screen.findByRole('radio', { name: 'No approval needed' })).toBeChecked();
    const number = screen.getByRole('textbox', { name: /N, the number of recipients/ });
    expect(number).toBeDisabled();

    await user.click(screen.getByRole('radio', { name: 'Every campaign needs approval' }));
    await save(user);
    expect(await screen.findByText(/Every campaign needs another admin’s approval before it starts\.$/)).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Campaigns of at least N recipients' }));
    expect(number).toBeEnabled();
    await user.type(number, '2500');
    const confirm = screen.getByRole('textbox', { name: /Confirm the recipient count from/ });
    await user.clear(confirm);
    await user.type(confirm, '250');
    await save(user);
    expect(
      await screen.findByText(
        'Scheduling a campaign of at least 250 recipients asks to type that number first. Campaigns of at least 2,500 recipients need another admin’s approval before they start.',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'No approval needed' }));
    await save(user);
    expect(await screen.findByText(/No approval needed: campaigns start at their send time\.$/)).toBeInTheDocument();

    expect(changes().map((request) => request.body)).toEqual([
      { confirm_threshold: 1000, approval_threshold: 0 },
      { confirm_threshold: 250, approval_threshold: 2500 },
      { confirm_threshold: 250, approval_threshold: null },
    ]);
  });

  it('asks for N before saving "at least N recipients", and for a confirm threshold', async () => {
    const { changes } = serve({ threshold: 0 });
    const { user } = renderPage();

    expect(await screen.findByRole('radio', { name: 'Every campaign needs approval' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Campaigns of at least N recipients' }));
    await user.clear(screen.getByRole('textbox', { name: /Confirm the recipient count from/ }));
    await save(user);

    expect(await screen.findByText('Enter a whole number of recipients from 1 to 100,000,000.')).toBeInTheDocument();
    expect(screen.getByText('Enter a whole number of recipients from 0 to 100,000,000.')).toBeInTheDocument();
    expect(changes()).toEqual([]);
  });

  it('shows the service’s 422 on the field it names, and Cancel goes back to what is saved', async () => {
    serve({
      answer: () => apiError(422, 'The given data was invalid.', { confirm_threshold: ['The confirm threshold must be at least 0.'] }),
    });
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Sending safety' });
    const confirm = within(form).getByRole('textbox', { name: /Confirm the recipient count from/ });

    await user.clear(confirm);
    await user.type(confirm, '5');
    await save(user);

    expect(await within(form).findByText('The confirm threshold must be at least 0.')).toBeInTheDocument();
    expect(confirm).toHaveAttribute('aria-invalid', 'true');
    expect(confirm).toHaveFocus();
    expect((await screen.findByText('The given data was invalid.')).closest('[role="alert"]')).toHaveTextContent(
      'The sending safety settings could not be saved',
    );
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(confirm).toHaveValue('1,000');
    expect(within(form).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });
});

describe('the cost estimate', SLOW, () => {
  it('sends the price and the currency, and null for no estimate', async () => {
    const { changes } = serve();
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Cost estimate' });
    const price = within(form).getByRole('textbox', { name: 'Price per SMS part' });
    expect(price).toHaveValue('');
    expect(within(form).getByRole('combobox', { name: /Currency/ })).toHaveValue('EUR · Euro');

    await user.type(price, '0.04512');
    await user.click(within(form).getByRole('combobox', { name: /Currency/ }));
    await user.click(await screen.findByRole('option', { name: 'GBP · British Pound' }));
    await user.click(within(form).getByRole('button', { name: 'Save cost estimate' }));
    expect(await screen.findByText('£0.04512 per SMS part.')).toBeInTheDocument();

    await user.clear(price);
    await user.click(within(form).getByRole('button', { name: 'Save cost estimate' }));
    expect(await screen.findByText('No cost estimate: campaigns are reviewed without one.')).toBeInTheDocument();

    expect(changes().map((request) => request.body)).toEqual([
      { price_per_segment: 0.04512, currency: 'GBP' },
      { price_per_segment: null, currency: 'GBP' },
    ]);
  });

  it('shows the service’s 422 on the price', async () => {
    serve({
      answer: () => apiError(422, 'The given data was invalid.', { price_per_segment: ['The price per segment may not be greater than 1000.'] }),
    });
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Cost estimate' });

    await user.type(within(form).getByRole('textbox', { name: 'Price per SMS part' }), '12');
    await user.click(within(form).getByRole('button', { name: 'Save cost estimate' }));

    expect(await within(form).findByText('The price per segment may not be greater than 1000.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Price per SMS part' })).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('quiet hours', SLOW, () => {
  const form = () => screen.getByRole('form', { name: 'Quiet hours' });
  const save = (user: ReturnType<typeof renderPage>['user']) => user.click(within(form()).getByRole('button', { name: 'Save quiet hours' }));

  it('turns them on with times, days and the team time zone, then off again', async () => {
    const { changes } = serve();
    const { user } = renderPage();
    await screen.findByRole('form', { name: 'Quiet hours' });
    expect(within(form()).queryByLabelText(/Quiet from/)).not.toBeInTheDocument();

    await user.click(within(form()).getByRole('switch', { name: 'Keep quiet hours' }));
    const from = within(form()).getByLabelText(/Quiet from/);
    const until = within(form()).getByLabelText(/Until/);
    expect(from).toHaveValue('21:00');
    expect(until).toHaveValue('08:00');
    expect(within(form()).getByText('Nothing is sent from 21:00 to 08:00 the next day, every day.')).toBeInTheDocument();

    await user.clear(from);
    await user.type(from, '20:30');
    await user.click(within(form()).getByRole('checkbox', { name: 'Saturday' }));
    await user.click(within(form()).getByRole('checkbox', { name: 'Sunday' }));
    expect(within(form()).getByText('Nothing is sent from 20:30 to 08:00 the next day, Monday to Friday.')).toBeInTheDocument();
    const zone = within(form()).getByRole('combobox', { name: /Team time zone/ });
    await user.clear(zone);
    await user.type(zone, 'New York');
    await user.click(await screen.findByRole('option', { name: /^America\/New York/ }));
    await save(user);
    expect(
      await screen.findByText('Nothing is sent from 20:30 to 08:00 the next day, Monday to Friday. Team time zone: America/New_York.'),
    ).toBeInTheDocument();

    await user.click(within(form()).getByRole('switch', { name: 'Keep quiet hours' }));
    await save(user);
    expect(await screen.findByText('Off: messages are sent at any hour. Team time zone: America/New_York.')).toBeInTheDocument();

    expect(changes().map((request) => request.body)).toEqual([
      { quiet_hours: { start: '20:30', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] }, time_zone: 'America/New_York' },
      { quiet_hours: null, time_zone: 'America/New_York' },
    ]);
  });

  it('asks for a day and an end other than the start before saving', async () => {
    const { changes } = serve({ settings: { quiet_hours: { start: '22:00', end: '07:00', days: ['sat'] } } });
    const { user } = renderPage();
    await screen.findByRole('form', { name: 'Quiet hours' });
    expect(within(form()).getByRole('switch', { name: 'Keep quiet hours' })).toBeChecked();

    await user.click(within(form()).getByRole('checkbox', { name: 'Saturday' }));
    const until = within(form()).getByLabelText(/Until/);
    await user.clear(until);
    await user.type(until, '22:00');
    await save(user);

    expect(await within(form()).findByText('Choose at least one day.')).toBeInTheDocument();
    expect(within(form()).getByText('Quiet hours must end at another time than they start.')).toBeInTheDocument();
    expect(changes()).toEqual([]);
  });

  it('shows the service’s 422 on the field it names', async () => {
    serve({
      settings: { quiet_hours: { start: '22:00', end: '07:00', days: ['sat'] } },
      answer: () => apiError(422, 'The given data was invalid.', { 'quiet_hours.end': ['The quiet hours end must be a time of the form HH:MM.'] }),
    });
    const { user } = renderPage();
    await screen.findByRole('form', { name: 'Quiet hours' });

    await save(user);

    expect(await within(form()).findByText('The quiet hours end must be a time of the form HH:MM.')).toBeInTheDocument();
    expect(within(form()).getByLabelText(/Until/)).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('automatic replies', SLOW, () => {
  const form = () => screen.getByRole('form', { name: 'Automatic replies' });

  it('counts the SMS parts of each reply and sends the three texts, empty for no reply', async () => {
    const { changes } = serve({ settings: { help_reply: 'Acme offers. Text STOP to stop.' } });
    const { user } = renderPage();
    await screen.findByRole('form', { name: 'Automatic replies' });
    const stop = within(form()).getByRole('textbox', { name: 'Reply to STOP' });
    expect(screen.getByTestId('opt_out_reply-hint')).toHaveTextContent('Empty: no reply is sent.');
    expect(screen.getByTestId('help_reply-hint')).toHaveTextContent('1 SMS part · 31/160 characters');

    await user.click(stop);
    await user.paste('x'.repeat(161));
    expect(screen.getByTestId('opt_out_reply-hint')).toHaveTextContent('2 SMS parts · 161/306 characters');
    await user.clear(stop);
    await user.type(stop, '  You will get no more messages from Acme. ');
    await user.type(within(form()).getByRole('textbox', { name: 'Reply to START' }), 'Welcome back 👋');
    expect(screen.getByTestId('opt_in_reply-hint')).toHaveTextContent('1 SMS part · 15/70 characters (Unicode: 70 a part)');
    await user.clear(within(form()).getByRole('textbox', { name: 'Reply to HELP' }));
    await user.click(within(form()).getByRole('button', { name: 'Save automatic replies' }));

    expect(await screen.findByText('The automatic replies are saved.')).toBeInTheDocument();
    expect(changes().map((request) => request.body)).toEqual([
      { opt_out_reply: 'You will get no more messages from Acme.', opt_in_reply: 'Welcome back 👋', help_reply: '' },
    ]);
  });

  it('refuses a reply over 612 characters, and shows the service’s 422 on its field', async () => {
    const { changes } = serve({
      answer: () => apiError(422, 'The given data was invalid.', { help_reply: ['The help reply contains characters that cannot be stored.'] }),
    });
    const { user } = renderPage();
    await screen.findByRole('form', { name: 'Automatic replies' });
    const help = within(form()).getByRole('textbox', { name: 'Reply to HELP' });

    await user.click(help);
    await user.paste('y'.repeat(613));
    await user.click(within(form()).getByRole('button', { name: 'Save automatic replies' }));
    expect(await within(form()).findByText('A reply may have at most 612 characters.')).toBeInTheDocument();
    expect(changes()).toEqual([]);

    await user.clear(help);
    await user.type(help, 'Help!');
    await user.click(within(form()).getByRole('button', { name: 'Save automatic replies' }));
    expect(await within(form()).findByText('The help reply contains characters that cannot be stored.')).toBeInTheDocument();
    expect(help).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('test numbers', SLOW, () => {
  const form = () => screen.getByRole('form', { name: 'Test numbers' });

  it('sends one number a line, shows what the service kept, and its 422 on the list', async () => {
    const { changes } = serve({ settings: { test_numbers: ['447700900111'] } });
    const { user } = renderPage();
    await screen.findByRole('form', { name: 'Test numbers' });
    const box = within(form()).getByRole('textbox', { name: 'Test numbers' });
    expect(box).toHaveValue('+447700900111');

    await user.type(box, '{Enter}{Enter}07700 900222 ');
    await user.click(within(form()).getByRole('button', { name: 'Save test numbers' }));
    expect(changes().map((request) => request.body)).toEqual([{ test_numbers: ['+447700900111', '07700 900222'] }]);

    serve({ answer: () => apiError(422, 'The given data was invalid.', { 'test_numbers.1': ['The test number "nope" is not a phone number.'] }) });
    await user.clear(box);
    await user.type(box, '+447700900111{Enter}nope');
    await user.click(within(form()).getByRole('button', { name: 'Save test numbers' }));
    expect(await within(form()).findByText('The test number "nope" is not a phone number.')).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the list to a member who cannot change it', async () => {
    serve({ settings: { test_numbers: ['447700900111'] } });
    renderPage('editor');
    expect(await screen.findByText("Tests go to the members' own numbers and to +447700900111 (admins may send them anywhere).")).toBeInTheDocument();
  });
});
