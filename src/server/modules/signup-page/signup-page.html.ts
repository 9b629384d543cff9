import { createHash } from 'node:crypto';
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import { countryName, PHONE_COUNTRIES } from '../../../shared/phone/phone-countries';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import { RATES_LINE, type SignupForm, type SignupFormErrors } from './signup-page.service';

/** Everything rendered from data goes through here: text and attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

// The pages' only style, inline and allowed by its hash: the policy below allows no script, no
// other style, no image and no frame. Colours hold 4.5:1 for text (7:1 for most) in both schemes.
const CSS = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1a1b1e;--muted:#495057;--line:#868e96;--panel:#f1f3f5;--accent:#1864ab;--on-accent:#ffffff;--error:#c92a2a;--focus:#1864ab}
@media (prefers-color-scheme:dark){:root{--bg:#1a1b1e;--fg:#f1f3f5;--muted:#c1c2c5;--line:#909296;--panel:#25262b;--accent:#74c0fc;--on-accent:#101113;--error:#ffa8a8;--focus:#a5d8ff}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0}
main{max-width:34rem;margin:0 auto;padding:2.5rem 1.25rem 3rem}
h1{font-size:1.75rem;line-height:1.25;margin:0 0 .5rem}
.lead,.note{color:var(--muted)}
.lead{margin:0 0 1.5rem}
.field{margin:0 0 1.25rem}
label{display:block;font-weight:600;margin:0 0 .35rem}
.optional{font-weight:400;color:var(--muted)}
input,select{display:block;width:100%;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.6rem .75rem;min-height:2.75rem}
input[aria-invalid=true]{border-color:var(--error);border-width:2px}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.error{color:var(--error);font-weight:600;margin:.35rem 0 0}
.alert{border:2px solid var(--error);border-radius:6px;padding:.75rem 1rem;margin:0 0 1.5rem}
.alert p{margin:0}
.consent{background:var(--panel);border-radius:6px;padding:1rem;margin:0 0 1.25rem}
.consent p{margin:0 0 .5rem}
.consent p:last-child{margin:0}
button{font:inherit;font-weight:600;color:var(--on-accent);background:var(--accent);border:0;border-radius:6px;padding:.75rem 1.5rem;min-height:2.75rem;cursor:pointer;width:100%}
a{color:var(--accent)}
.hp{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
@media (min-width:40rem){button{width:auto}}
`.trim();

/**
 * The pages' Content-Security-Policy: nothing but this one style, posts to the page's own origin,
 * never framed. Stricter than the dashboard's (http/security-headers.ts keeps a route's own policy).
 */
export const SIGNUP_PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Every country the selector offers, by name, each with its calling code: built once. */
const COUNTRIES = PHONE_COUNTRIES.map((code) => ({ code, label: `${countryName(code)} (+${getCountryCallingCode(code as CountryCode)})` })).sort((a, b) =>
  a.label.localeCompare(b.label, 'en'),
);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

export type SignupFormView = {
  slug: string;
  heading: string;
  teamName: string;
  consentText: string;
  frequencyText: string;
  askFirstName: boolean;
  country: string;
  token: string;
  values?: Partial<SignupForm>;
  errors?: SignupFormErrors;
};

/** The form: works without script; each error beside its field, named by aria-describedby and aria-invalid. */
export function signupFormPage(view: SignupFormView): string {
  const errors = view.errors ?? {};
  const values = view.values ?? {};
  const fieldError = (name: 'phone_number' | 'first_name') => (errors[name] ? `<p class="error" id="${name}-error">${escapeHtml(errors[name])}</p>` : '');
  const invalid = (name: 'phone_number' | 'first_name', hint?: string) => {
    const described = [errors[name] ? `${name}-error` : '', hint ?? ''].filter(Boolean).join(' ');
    return `${errors[name] ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}`;
  };
  const options = COUNTRIES.map((c) => `<option value="${c.code}"${c.code === view.country ? ' selected' : ''}>${escapeHtml(c.label)}</option>`).join('');
  const alert = errors.form
    ? `<div class="alert" role="alert"><p>${escapeHtml(errors.form)}</p></div>`
    : errors.phone_number || errors.first_name
      ? `<div class="alert" role="alert"><p>Please correct the highlighted field below.</p></div>`
      : '';
  const firstName = view.askFirstName
    ? `<div class="field">
<label for="first_name">First name <span class="optional">(optional)</span></label>
<input id="first_name" name="first_name" type="text" autocomplete="given-name" maxlength="100" value="${escapeHtml(values.first_name ?? '')}"${invalid('first_name')}>
${fieldError('first_name')}
</div>`
    : '';
  return page(
    view.heading,
    `<h1>${escapeHtml(view.heading)}</h1>
<p class="lead">Sign up for text messages from ${escapeHtml(view.teamName)}. We will text you once to confirm.</p>
${alert}
<form method="post" action="/join/${escapeHtml(view.slug)}" novalidate>
<input type="hidden" name="form_token" value="${escapeHtml(view.token)}">
<div class="field">
<label for="country">Country</label>
<select id="country" name="country" autocomplete="country">${options}</select>
</div>
<div class="field">
<label for="phone_number">Mobile number</label>
<input id="phone_number" name="phone_number" type="tel" inputmode="tel" autocomplete="tel-national" required aria-required="true" value="${escapeHtml(values.phone_number ?? '')}"${invalid('phone_number')}>
${fieldError('phone_number')}
</div>
${firstName}
<div class="hp" aria-hidden="true">
<label for="website">Leave this field empty</label>
<input id="website" name="website" type="text" tabindex="-1" autocomplete="off" value="">
</div>
<div class="consent" id="consent">
<p>${escapeHtml(view.consentText)}</p>
<p>${escapeHtml(view.frequencyText)}</p>
<p>${escapeHtml(RATES_LINE)}</p>
</div>
<button type="submit" aria-describedby="consent">Sign up</button>
</form>`,
  );
}

/** Where a successful post lands (post, redirect, get). */
export function signupThanksPage(view: { slug: string }): string {
  return page(
    'Check your phone: reply YES to confirm',
    `<h1>Check your phone: reply YES to confirm</h1>
<p>We have sent a text from ${SHORT_CODE_SENDER}. Reply YES within 48 hours to start receiving messages; until then we will not text you again.</p>
<p class="note">No text after a few minutes? Check the number and <a href="/join/${escapeHtml(view.slug)}">sign up again</a>.</p>`,
  );
}

export function signupNotFoundPage(): string {
  return page('Page not found', `<h1>Page not found</h1>\n<p>This sign-up page does not exist or is switched off.</p>`);
}

export function signupTooManyPage(retryAfterSeconds: number): string {
  return page(
    'Too many attempts',
    `<h1>Too many attempts</h1>\n<p>We received too many sign-ups from your connection or for this number. Please wait ${retryAfterSeconds === 1 ? 'a second' : `${retryAfterSeconds} seconds`} and try again.</p>`,
  );
}
