import { SignupPageInputSchema, type SignupPage, type SignupPageInput } from '../../../shared/contract';
import { PHONE_COUNTRIES } from '../../../shared/phone/phone-countries';
import { isUniqueViolation, type Db } from '../../db/client';
import type { SharedRateLimiter } from '../../db/rate-counters';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { ConsentRepository } from '../consent/consent.repository';
import type { ContactGroupRow } from '../contact-groups/contact-groups.repository';
import { createFormTokens } from './form-token';
import type { PublicSignupPageRow, SignupPageRow, SignupPagesRepository } from './signup-page.repository';

/** The line every sign-up page shows beside its button, after the team's own texts. */
export const RATES_LINE = 'Msg & data rates may apply; reply STOP to opt out.';
/** Posts a minute for one number on one team's page (the address limit is SIGNUP_RATE_LIMIT_PER_MINUTE). */
export const SIGNUP_POSTS_PER_NUMBER_PER_MINUTE = 3;
const FIRST_NAME_MAX = 100;

/** What the visitor agreed to: exactly the texts shown beside the button, one a line (kept as `text_shown`). */
export const disclosureOf = (page: Pick<SignupPageRow, 'consentText' | 'frequencyText'>) => [page.consentText, page.frequencyText, RATES_LINE].join('\n');

/** The form's fields as posted (every value a string, absent ones empty). */
export type SignupForm = { country: string; phone_number: string; first_name: string; website: string; form_token: string };
export type SignupFormErrors = Partial<Record<'phone_number' | 'first_name' | 'form', string>>;

/** What became of a post; `herald_signup_posts_total{result}` counts them. */
export type SignupResult = 'requested' | 'renewed' | 'honeypot' | 'invalid' | 'rate_limited';
export type SignupOutcome =
  | { result: 'requested' | 'renewed' | 'honeypot' }
  | { result: 'invalid'; errors: SignupFormErrors; form: SignupForm }
  | { result: 'rate_limited'; retryAfterSeconds: number };

/**
 * The hosted sign-up page: its settings (admins write them, every member reads them; each change in
 * the audit trail) and the public form's posts, each a double opt-in request through the consent
 * repository (`requestOptIn`: the "reply YES" text from the short code, at most one per number in
 * ten minutes). A post is not a member's change, so it is not in the audit trail: the request
 * itself, with its address, user agent and the text shown, is the record.
 */
export function createSignupPageService(deps: {
  db: Db;
  audit: Pick<AuditTrail, 'record'>;
  pages: SignupPagesRepository;
  contactGroups: { find(teamId: number, uuid: string): Promise<ContactGroupRow | undefined> };
  consent: Pick<ConsentRepository, 'requestOptIn'>;
  /** Whether a group is the team's opt-out list (the suppressions' own rule). */
  suppressions: Pick<Suppressions, 'isList'>;
  /** The double opt-in's text for a team (the consent module's `confirmationText`). */
  confirmationText: (teamName: string) => string;
  limiter: SharedRateLimiter;
  clock: Clock;
  secretKey: Buffer;
  config: { publicUrl: string; appTimezone: string; defaultCountry: string; signupRateLimitPerMinute: number };
  observe?: (result: SignupResult) => void;
}) {
  const tokens = createFormTokens(deps.secretKey);
  const defaultCountryOf = (page: PublicSignupPageRow) => page.defaultCountry ?? deps.config.defaultCountry;
  const observe = (result: SignupResult) => deps.observe?.(result);

  const urlsOf = (slug: string, domains: string[]) => [`${deps.config.publicUrl}/join/${slug}`, ...domains.map((domain) => `https://${domain}/join/${slug}`)];

  const present = (row: SignupPageRow, domains: string[]): SignupPage => ({
    slug: row.slug,
    enabled: row.enabled,
    heading: row.heading,
    consent_text: row.consentText,
    frequency_text: row.frequencyText,
    group_uuid: row.groupUuid,
    ask_first_name: row.askFirstName,
    urls: urlsOf(row.slug, domains),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
  });

  return {
    /** The team's page; 404 until an admin first saves it. */
    async show(auth: AuthContext): Promise<SignupPage> {
      const row = await deps.pages.findOfTeam(auth.teamId);
      if (!row) throw new NotFoundError('The team has no sign-up page yet: an admin sets one up with PUT /team/signup-page.');
      return present(row, await deps.pages.domainsOf(auth.teamId));
    },

    /** Creates or replaces the team's page. */
    async save(auth: AuthContext, body: SignupPageInput): Promise<SignupPage> {
      const input = SignupPageInputSchema.parse(body);
      const group = await deps.contactGroups.find(auth.teamId, input.group_uuid);
      if (!group) throw ValidationError.field('group_uuid', 'The group_uuid must be the uuid of one of the team’s contact groups.');
      if (deps.suppressions.isList(group)) throw ValidationError.field('group_uuid', 'A sign-up cannot join the opt-out list; choose another group.');
      return deps.db.transaction(async (tx) => {
        const current = await deps.pages.findOfTeam(auth.teamId, tx);
        const domains = await deps.pages.domainsOf(auth.teamId, tx);
        await deps.pages
          .save(tx, auth.teamId, {
            slug: input.slug,
            enabled: input.enabled,
            heading: input.heading,
            consentText: input.consent_text,
            frequencyText: input.frequency_text,
            groupId: group.id,
            askFirstName: input.ask_first_name,
          })
          .catch((error: unknown) => {
            if (isUniqueViolation(error, 'signup_pages_slug_key'))
              throw new ConflictError('Another team’s sign-up page already has this slug; choose another.');
            throw error;
          });
        const after = present((await deps.pages.findOfTeam(auth.teamId, tx))!, domains);
        await deps.audit.record(tx, auth, {
          resourceType: 'signup_page',
          resourceUuid: null,
          ...(current ? { before: present(current, domains) } : {}),
          after,
        });
        return after;
      });
    },

    /** The page public at `slug` on `host`, or undefined (unknown, switched off, without a group, another team's link domain). */
    publicPage: (slug: string, host: string) => deps.pages.findPublic(slug, host),

    /** The country the page's selector starts at: the team's, else the installation's. */
    defaultCountryOf,

    /** A fresh form token for the page (form-token.ts). */
    formToken: (page: PublicSignupPageRow) => tokens.issue(page.slug, deps.clock.now()),

    /**
     * One post of the form. In order: the address's rate limit (429), the honeypot (answered like a
     * success, nothing recorded), the form token (a post too soon after the page was served, or of a
     * page served hours ago, is sent back to be posted again), the number in the chosen country, the
     * number's own rate limit, then one double opt-in request in one transaction.
     */
    async submit(page: PublicSignupPageRow, form: SignupForm, visitor: { ip: string; userAgent: string }): Promise<SignupOutcome> {
      const byAddress = await deps.limiter.hit([{ key: `signup:ip:${visitor.ip}`, max: deps.config.signupRateLimitPerMinute }]);
      if (!byAddress.allowed) {
        observe('rate_limited');
        return { result: 'rate_limited', retryAfterSeconds: byAddress.retryAfterSeconds };
      }
      if (form.website.trim() !== '') {
        observe('honeypot');
        return { result: 'honeypot' };
      }
      const invalid = (errors: SignupFormErrors): SignupOutcome => {
        observe('invalid');
        return { result: 'invalid', errors, form };
      };
      const now = deps.clock.now();
      const token = tokens.check(form.form_token, page.slug, now);
      if (token === 'too_fast') return invalid({ form: 'That was quicker than we expected. Please check your details and send the form again.' });
      if (token !== 'ok') return invalid({ form: 'This form had expired. Please check your details and send it again.' });

      const country = (PHONE_COUNTRIES as readonly string[]).includes(form.country) ? form.country : defaultCountryOf(page);
      const errors: SignupFormErrors = {};
      const number = normalizePhoneNumber(form.phone_number, country);
      if (form.phone_number.trim() === '') errors.phone_number = 'Enter your mobile number.';
      else if (!number.ok) errors.phone_number = `Enter a mobile number we can text: this one ${number.reason}.`;
      const firstName = page.askFirstName ? form.first_name.trim() : '';
      if (firstName.length > FIRST_NAME_MAX) errors.first_name = `Your first name may be at most ${FIRST_NAME_MAX} characters long.`;
      if (Object.keys(errors).length > 0 || !number.ok) return invalid(errors);

      const byNumber = await deps.limiter.hit([{ key: `signup:number:${page.teamId}:${number.number}`, max: SIGNUP_POSTS_PER_NUMBER_PER_MINUTE }]);
      if (!byNumber.allowed) {
        observe('rate_limited');
        return { result: 'rate_limited', retryAfterSeconds: byNumber.retryAfterSeconds };
      }
      const { queued } = await deps.db.transaction((tx) =>
        deps.consent.requestOptIn(tx, {
          teamId: page.teamId,
          phoneNumber: number.number,
          source: 'form',
          textShown: disclosureOf(page),
          evidence: { ip: visitor.ip, user_agent: visitor.userAgent, page_slug: page.slug },
          groupId: page.groupId,
          fields: firstName ? { first_name: firstName } : {},
          now,
          sender: SHORT_CODE_SENDER,
          confirmation: deps.confirmationText(page.teamName),
        }),
      );
      const result = queued ? 'requested' : 'renewed';
      observe(result);
      return { result };
    },
  };
}
export type SignupPageService = ReturnType<typeof createSignupPageService>;
