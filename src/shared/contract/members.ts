import { z } from 'zod';
import { RoleSchema, TeamSummarySchema } from './auth';
import { TimestampSchema, UuidSchema } from './common';
import { requiredString, typeError } from './fields';

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

export const TeamSettingsSchema = z
  .object({
    name: z.string().describe('The team name.'),
    approval_threshold: z
      .number()
      .int()
      .nullable()
      .describe('Campaigns with at least this many recipients wait for an admin’s approval; 0: every campaign; null: none.'),
  })
  .meta({ id: 'TeamSettings' });
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

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
  })
  .describe('The team settings to change; a field left out keeps its value.');
export type TeamSettingsInput = z.infer<typeof TeamSettingsInputSchema>;

export const ProfileInputSchema = z.object({ name: nameField.describe('The name shown to the team.') }).describe("The caller's profile.");
export type ProfileInput = z.infer<typeof ProfileInputSchema>;

export const PasswordChangeSchema = z
  .object({
    current_password: z
      .string({ error: required('current password') })
      .min(1, 'The current password field is required.')
      .max(1024),
    new_password: newPasswordField('new_password'),
  })
  .describe('The current password, and the new one; the caller’s other sessions are signed out.');
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

export const PasswordResetRequestSchema = z.object({ email: emailField.describe('The address of the account.') }).describe('Where to send a reset link.');
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

export const PasswordResetConfirmSchema = z
  .object({
    token: linkSecretField,
    password: newPasswordField('password').describe(`The new password, at least ${PASSWORD_MIN} characters.`),
  })
  .describe('Sets a new password with a reset link; every session of the account is signed out.');
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;
