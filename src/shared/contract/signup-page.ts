import { z } from 'zod';
import { TimestampSchema } from './common';

/** A sign-up page's address: lowercase letters, digits and inner hyphens, 3 to 40 characters. */
export const SIGNUP_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;

/**
 * Slugs no team may take: words that read as Herald's own pages or as a keyword a handset sends,
 * so that no page can pass for the service or for an opt-out instruction.
 */
export const RESERVED_SIGNUP_SLUGS = [
  'admin',
  'api',
  'app',
  'assets',
  'dashboard',
  'docs',
  'healthz',
  'help',
  'herald',
  'info',
  'join',
  'login',
  'logout',
  'metrics',
  'new',
  'readyz',
  'settings',
  'signin',
  'signup',
  'start',
  'static',
  'stop',
  'support',
  'thanks',
  'unsubscribe',
  'www',
] as const;

const text = (field: string, label: string, max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? `The ${field} field is required.` : `The ${label} must be a string.`) })
    .trim()
    .min(1, `The ${label} may not be empty.`)
    .max(max, `The ${label} may not be longer than ${max} characters.`);

export const SignupPageInputSchema = z
  .object({
    slug: z
      .string({ error: (i) => (i.input === undefined ? 'The slug field is required.' : 'The slug must be a string.') })
      .trim()
      .regex(SIGNUP_SLUG_PATTERN, 'The slug must be 3 to 40 lowercase letters, digits or hyphens, starting and ending with a letter or digit.')
      .refine((slug) => !(RESERVED_SIGNUP_SLUGS as readonly string[]).includes(slug), 'This slug is reserved; choose another.')
      .describe('The page is at `/join/{slug}`. Unique across Herald; lowercase letters, digits and hyphens, 3–40 characters; some words are reserved.'),
    enabled: z.boolean({ error: 'The enabled field must be true or false.' }).default(false).describe('Off: the page answers 404. Default false.'),
    heading: text('heading', 'heading', 120).describe('The page’s title, e.g. “Texts from Acme”.'),
    consent_text: text('consent_text', 'consent text', 1000).describe(
      'What the visitor agrees to, shown next to the button and kept with each request as `text_shown`.',
    ),
    frequency_text: text('frequency_text', 'frequency text', 200).describe('How often the team texts, e.g. “Up to 4 msgs/week”.'),
    group_uuid: z
      .uuid({
        error: (i) => (i.input === undefined ? 'The group_uuid field is required.' : 'The group_uuid must be the uuid of one of the team’s contact groups.'),
      })
      .describe('The contact group a number joins once it replies YES.'),
    ask_first_name: z.boolean({ error: 'The ask_first_name field must be true or false.' }).default(false).describe('Adds an optional first-name field.'),
  })
  .describe('The team’s hosted sign-up page.');
export type SignupPageInput = z.input<typeof SignupPageInputSchema>;

export const SignupPageSchema = z
  .object({
    slug: z.string(),
    enabled: z.boolean(),
    heading: z.string(),
    consent_text: z.string(),
    frequency_text: z.string(),
    group_uuid: z.string().nullable().describe('null: the group was deleted; the page answers 404 until another is chosen.'),
    ask_first_name: z.boolean(),
    urls: z
      .array(z.string())
      .describe('Where the page is: PUBLIC_URL/join/{slug} first, then https://{domain}/join/{slug} for each of the team’s link domains.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'SignupPage' });
export type SignupPage = z.infer<typeof SignupPageSchema>;
