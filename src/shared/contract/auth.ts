import { z } from 'zod';
import { TimestampSchema, UuidSchema } from './common';
import { isStorableText, unstorableMessage } from './fields';

/** admin: everything, members and settings included; editor: content, audiences and campaigns; viewer: reads, and asks for report e-mails. */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export const RoleSchema = z
  .enum(ROLES)
  .describe('`admin` does everything, `editor` creates and edits content, audiences and campaigns, `viewer` reads and asks for report e-mails.');
export type Role = z.infer<typeof RoleSchema>;

export const TeamSummarySchema = z
  .object({
    uuid: UuidSchema,
    name: z.string().describe('Team name.'),
    role: RoleSchema.describe("The user's role in the team."),
  })
  .meta({ id: 'TeamSummary' });
export type TeamSummary = z.infer<typeof TeamSummarySchema>;

export const CurrentUserSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable().describe("The member's own number (E.164 digits without +), where test sends go by default; null when unset."),
    current_team: TeamSummarySchema.describe('The team every request is scoped to.'),
    teams: z.array(TeamSummarySchema).describe('Every team the user belongs to.'),
    app_timezone: z.string().describe('IANA zone of every timestamp the service reads and writes.'),
    created_at: TimestampSchema,
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export const LoginRequestSchema = z
  .object({
    email: z
      .string({ error: (i) => (i.input === undefined ? 'The email field is required.' : 'The email must be a string.') })
      .trim()
      .min(1, 'The email field is required.')
      .max(254, 'The email may not be greater than 254 characters.')
      .refine(isStorableText, unstorableMessage('email'))
      .describe('Sign-in e-mail address.'),
    password: z
      .string({ error: (i) => (i.input === undefined ? 'The password field is required.' : 'The password must be a string.') })
      .min(1, 'The password field is required.')
      .max(1024, 'The password may not be greater than 1024 characters.')
      .describe('Password.'),
  })
  .describe('E-mail and password of a Herald user.');
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const LoginResultSchema = z
  .object({
    token: z.string().describe('Bearer token for the `Authorization` header; valid 30 days or until signed out.'),
    user: CurrentUserSchema,
  })
  .meta({ id: 'LoginResult' });
