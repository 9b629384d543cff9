import { z } from 'zod';
import { RoleSchema, TeamSummarySchema } from './auth';
import { TimestampSchema, UuidSchema } from './common';
import { isStorableText, requiredString, typeError, unstorableMessage } from './fields';
import { QUIET_TIME_PATTERN, WEEKDAYS } from '../schedule/quiet-hours';
import { canonicalTimeZone } from '../time/time-zones';
import { PHONE_COUNTRIES } from '../phone/phone-countries';

/** The shortest password Herald accepts for a new or changed password. */
export const PASSWORD_MIN = 12;

const required = (field: string) => typeError(field, 'a string');

const emailField = requiredString('email', 254).regex(/^[^\s@]+@[^\s@]+$/, 'The email must be a valid email address.');

/** A new password: at least PASSWORD_MIN characters. */
export const newPasswordField = (field: string) =>
  z
    .string({ error: required(field.replace(/_/g, ' ')) })
    .min(PASSWORD_MIN, `The ${field.replace(/_/g, ' ')} must be at least ${PASSWORD_MIN} characters.`)
    .max(1024, `The ${field.replace(/_/g, ' ')} may not be greater than 1024 characters.`);

const nameField = requiredString('name', 100);

/** The secret of an e-mailed link (after its `#`). */
const linkSecretField = z
  .string({ error: required('token') })
  .min(1, 'The token field is required.')
  .max(200, 'The token is not valid.')
  .describe('The secret from the link.');

const roleField = z.enum(['admin', 'editor', 'viewer'], { error: 'The role must be admin, editor or viewer.' });

export const MemberSchema = z
  .object({
    uuid: UuidSchema.describe("The member's user identifier."),
    email: z.string(),
    name: z.string(),
    role: RoleSchema,
    joined_at: TimestampSchema,
    last_seen_at: TimestampSchema.describe('The last time any of their sign-ins or tokens was used; empty when never.'),
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof MemberSchema>;

export const MemberRoleInputSchema = z.object({ role: roleField.describe('The new role.') }).describe("A member's new role.");
export type MemberRoleInput = z.infer<typeof MemberRoleInputSchema>;

export const InvitationInputSchema = z
  .object({
    email: emailField.describe('Where the invitation is sent.'),
    role: roleField.describe('The role the person gets on joining.'),
  })
  .describe('Who to invite, and as what.');
export type InvitationInput = z.infer<typeof InvitationInputSchema>;

export const InvitationSchema = z
  .object({
    uuid: UuidSchema,
    email: z.string(),
    role: RoleSchema,
    invited_by: z.string().describe('The name of the member who sent it; empty when they are gone.'),
    created_at: TimestampSchema,
    expires_at: TimestampSchema.describe('The link works until then (7 days after it was sent).'),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof InvitationSchema>;

export const InvitationPreviewSchema = z
  .object({
    team_name: z.string(),
    email: z.string(),
    role: RoleSchema,
    existing_user: z.boolean().describe('true: the address already has an account, which joins the team; false: the person chooses a name and password.'),
    expires_at: TimestampSchema,
  })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

export const InvitationAcceptSchema = z
  .object({
    token: linkSecretField,
    name: nameField.optional().describe('Required for a new account: the name shown to the team.'),
    password: newPasswordField('password').optional().describe(`Required for a new account: at least ${PASSWORD_MIN} characters.`),
  })
  .describe('Accepts an invitation; a new person also sets a name and a password.');
export type InvitationAccept = z.infer<typeof InvitationAcceptSchema>;

export const InvitationAcceptedSchema = z
  .object({ email: z.string().describe('The address to sign in with.'), team: TeamSummarySchema })
  .meta({ id: 'InvitationAccepted' });
export type InvitationAccepted = z.infer<typeof InvitationAcceptedSchema>;

const quietHoursShape = {
  start: z.string().describe('`HH:MM`: quiet hours begin (24-hour clock, in the recipient’s zone).'),
  end: z.string().describe('`HH:MM`: they end; at or before `start` means the next day.'),
  days: z.array(z.enum(WEEKDAYS)).describe('The days on which a quiet period begins.'),
};

export const QuietHoursSchema = z.object(quietHoursShape).meta({
  id: 'QuietHours',
  description:
    "Herald extension. Nothing is sent to a recipient while it is quiet hours in the recipient's time zone (from the number's country, or its area code in the United States, Canada and Australia; the team's `time_zone` for what neither places).",
});

const replyText = (label: string) =>
  z
    .string({ error: `The ${label} must be a string.` })
    .trim()
    .max(612, `The ${label} may not be greater than 612 characters.`)
    .refine(isStorableText, unstorableMessage(label));

/** How many test numbers a team keeps besides its members' own. */
export const MAX_TEST_NUMBERS = 10;

export const FrequencyCapSchema = z
  .object({
    messages: z.number().int().describe('At most this many marketing messages to one number.'),
    days: z.number().int().describe('Within this many days before each send (a sliding window).'),
  })
  .meta({
    id: 'FrequencyCap',
    description:
      "Herald extension. At most `messages` marketing messages to a number in the team within `days` days: the team's campaign messages handed over (not test sends) and the flows' messages not marked transactional. A campaign message or flow message over the cap is not sent but unsent with reason `frequency_cap`. Keyword replies, inbox replies and opt-in confirmations are never counted nor capped.",
  });

export const TeamSettingsSchema = z
  .object({
    name: z.string().describe('The team name.'),
    approval_threshold: z
      .number()
      .int()
      .nullable()
      .describe('Campaigns with at least this many recipients wait for an admin’s approval; 0: every campaign; null: none.'),
    confirm_threshold: z
      .number()
      .int()
      .describe('From this many recipients on, the dashboard asks the sender to type the recipient count before a campaign is scheduled.'),
    price_per_segment: z.number().nullable().describe('What one SMS part costs, for the estimate in the review; null: no estimate.'),
    currency: z.string().describe('ISO 4217 code of `price_per_segment`.'),
    time_zone: z.string().describe("The team's time zone: quiet hours of numbers whose country has several zones are kept in it."),
    quiet_hours: QuietHoursSchema.nullable().describe('null: off.'),
    default_country: z
      .string()
      .describe(
        "The two-letter code (ISO 3166) of the country the team's national numbers are read in: imports (the wizard's choice starts from it) and search.",
      ),
    opt_out_reply: z.string().describe('Sent once to a number that opts out (STOP and its synonyms); empty: no reply.'),
    opt_in_reply: z.string().describe('Sent to a number that opts back in (START, UNSTOP); empty: no reply.'),
    help_reply: z.string().describe('Sent in answer to HELP; empty: no reply.'),
    test_numbers: z
      .array(z.string())
      .describe("Numbers (E.164 digits) any member may send tests to, besides the members' own profile numbers; admins may send tests to any number."),
    click_window_days: z
      .number()
      .int()
      .describe('Herald extension. A conversion is credited to the last human click on a tracked link within this many days before it (default 5; 0: off).'),
    view_window_hours: z
      .number()
      .int()
      .describe(
        'Herald extension. Failing a click, a conversion is credited to the last delivered campaign message within this many hours before it (default 24; 0: off).',
      ),
    frequency_cap: FrequencyCapSchema.nullable().describe('Herald extension. The frequency cap; null: none (the default).'),
    double_opt_in: z
      .boolean()
      .describe(
        'Herald extension. Double opt-in: a number without consent that texts a keyword adding it to a group or starting a flow is first asked to reply YES, and joins (or starts the flow) only after YES within 48 hours (default false; docs/consent.md).',
      ),
  })
  .meta({ id: 'TeamSettings' });
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

const quietTime = (label: string) =>
  z.string({ error: `The quiet hours ${label} must be a string.` }).regex(QUIET_TIME_PATTERN, `The quiet hours ${label} must be a time of the form HH:MM.`);

export const QuietHoursInputSchema = z
  .object(
    {
      start: quietTime('start'),
      end: quietTime('end'),
      days: z
        .array(z.enum(WEEKDAYS, { error: `Each quiet hours day must be one of ${WEEKDAYS.join(', ')}.` }), { error: 'The quiet hours days must be a list.' })
        .min(1, 'The quiet hours need at least one day.')
        .default([...WEEKDAYS])
        .transform((days) => WEEKDAYS.filter((day) => days.includes(day))),
    },
    { error: 'The quiet hours must be an object with start, end and days, or null.' },
  )
  .refine((quiet) => quiet.start !== quiet.end, { message: 'The quiet hours must end at another time than they start.', path: ['end'] });

export const TeamSettingsInputSchema = z
  .object({
    name: nameField.optional().describe('A new team name; unchanged when absent. Team names are unique regardless of case.'),
    approval_threshold: z
      .number({ error: 'The approval threshold must be a whole number or null.' })
      .int('The approval threshold must be a whole number or null.')
      .min(0, 'The approval threshold must be at least 0.')
      .max(100_000_000, 'The approval threshold may not be greater than 100000000.')
      .nullable()
      .optional()
      .describe('Campaigns with at least this many recipients wait for an admin’s approval; 0: every campaign; null: none; unchanged when absent.'),
    confirm_threshold: z
      .number({ error: 'The confirm threshold must be a whole number.' })
      .int('The confirm threshold must be a whole number.')
      .min(0, 'The confirm threshold must be at least 0.')
      .max(100_000_000, 'The confirm threshold may not be greater than 100000000.')
      .optional()
      .describe('From this many recipients on, the dashboard asks to type the recipient count (default 1000).'),
    price_per_segment: z
      .number({ error: 'The price per segment must be a number or null.' })
      .min(0, 'The price per segment must be at least 0.')
      .max(1000, 'The price per segment may not be greater than 1000.')
      .refine((price) => Math.abs(Math.round(price * 100_000) - price * 100_000) < 1e-6, 'The price per segment may have at most 5 decimals.')
      .nullable()
      .optional()
      .describe('What one SMS part costs; null: no cost estimate.'),
    currency: z
      .string({ error: 'The currency must be a string.' })
      .regex(/^[A-Z]{3}$/, 'The currency must be a three-letter ISO 4217 code, such as EUR.')
      .optional(),
    time_zone: z
      .string({ error: 'The time zone must be a string.' })
      .refine((zone) => canonicalTimeZone(zone) !== null, 'The time zone must be a time zone name, such as Europe/Paris.')
      .transform((zone) => canonicalTimeZone(zone)!)
      .optional()
      .describe('An IANA time zone name.'),
    quiet_hours: QuietHoursInputSchema.nullable().optional().describe('Quiet hours; null turns them off.'),
    default_country: z
      .string({ error: 'The default country must be a string.' })
      .trim()
      .toUpperCase()
      .refine((code) => (PHONE_COUNTRIES as readonly string[]).includes(code), 'The default country must be a two-letter country code, such as GB or DE.')
      .optional()
      .describe('The two-letter code (ISO 3166) of the country national numbers are read in; unchanged when absent.'),
    opt_out_reply: replyText('opt out reply').optional(),
    opt_in_reply: replyText('opt in reply').optional(),
    help_reply: replyText('help reply').optional(),
    test_numbers: z
      .array(z.string({ error: 'Each test number must be a string.' }).trim().max(32, 'A test number may not be greater than 32 characters.'), {
        error: 'The test numbers must be a list.',
      })
      .max(MAX_TEST_NUMBERS, `The team may have at most ${MAX_TEST_NUMBERS} test numbers.`)
      .optional()
      .describe(
        `At most ${MAX_TEST_NUMBERS} numbers any member may send tests to, besides their own; national numbers are read in the service's default country. Replaces the list.`,
      ),
    click_window_days: z
      .number({ error: 'The click window days must be a whole number.' })
      .int('The click window days must be a whole number.')
      .min(0, 'The click window days must be at least 0.')
      .max(90, 'The click window days may not be greater than 90.')
      .optional()
      .describe('Days a human click is credited with a conversion after it (0: off).'),
    view_window_hours: z
      .number({ error: 'The view window hours must be a whole number.' })
      .int('The view window hours must be a whole number.')
      .min(0, 'The view window hours must be at least 0.')
      .max(720, 'The view window hours may not be greater than 720.')
      .optional()
      .describe('Hours a delivered campaign message is credited with a conversion after it, failing a click (0: off).'),
    frequency_cap: z
      .object(
        {
          messages: z
            .number({ error: 'The frequency cap messages must be a whole number.' })
            .int('The frequency cap messages must be a whole number.')
            .min(1, 'The frequency cap messages must be at least 1.')
            .max(10_000, 'The frequency cap messages may not be greater than 10000.'),
          days: z
            .number({ error: 'The frequency cap days must be a whole number.' })
            .int('The frequency cap days must be a whole number.')
            .min(1, 'The frequency cap days must be at least 1.')
            .max(90, 'The frequency cap days may not be greater than 90.'),
        },
        { error: 'The frequency cap must be an object with messages and days, or null.' },
      )
      .nullable()
      .optional()
      .describe(
        'Herald extension. At most `messages` marketing messages to a number within `days` days (1 to 90); null turns the cap off; unchanged when absent.',
      ),
    double_opt_in: z
      .boolean({ error: 'The double opt in must be true or false.' })
      .optional()
      .describe('Double opt-in for keyword sign-ups: the number joins only after replying YES within 48 hours; unchanged when absent.'),
  })
  .describe('The team settings to change; a field left out keeps its value.');
export type TeamSettingsInput = z.infer<typeof TeamSettingsInputSchema>;

export const ProfileInputSchema = z
  .object({
    name: nameField.describe('The name shown to the team.'),
    phone_number: z
      .string({ error: 'The phone number must be a string.' })
      .max(32, 'The phone number may not be greater than 32 characters.')
      .optional()
      .describe("The member's own number, where test sends go by default; national numbers are read in the service's default country; '' clears it."),
  })
  .describe("The caller's profile.");
export type ProfileInput = z.infer<typeof ProfileInputSchema>;

export const PasswordChangeSchema = z
  .object({
    current_password: z
      .string({ error: required('current password') })
      .min(1, 'The current password field is required.')
      .max(1024),
    new_password: newPasswordField('new_password'),
    revoke_api_tokens: z
      .boolean({ error: 'The revoke api tokens field must be true or false.' })
      .optional()
      .describe('Herald extension. `true`: every API token of the account (in every team) is revoked too. Off by default.'),
  })
  .describe('The current password, and the new one; the caller’s other sessions are signed out.');
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

export const PasswordResetRequestSchema = z.object({ email: emailField.describe('The address of the account.') }).describe('Where to send a reset link.');
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

export const PasswordResetConfirmSchema = z
  .object({
    token: linkSecretField,
    password: newPasswordField('password').describe(`The new password, at least ${PASSWORD_MIN} characters.`),
    revoke_api_tokens: z
      .boolean({ error: 'The revoke api tokens field must be true or false.' })
      .optional()
      .describe(
        'Herald extension. Every API token of the account (in every team) is revoked too: on by default after a reset, since whoever knew the old password may have made one. `false` keeps them.',
      ),
  })
  .describe('Sets a new password with a reset link; every session of the account is signed out.');
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;
