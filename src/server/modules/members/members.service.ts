import type {
  Invitation,
  InvitationAccept,
  InvitationAccepted,
  InvitationInput,
  InvitationPreview,
  Member,
  Role,
  TeamSettings,
  TeamSettingsInput,
} from '../../../shared/contract';
import { isUniqueViolation, type Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import type { Passwords } from '../../lib/passwords';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { linkSecret, tokenDigest } from '../../lib/secrets';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AccountMailRepository } from '../account-mail/account-mail.repository';
import type { AuditRepository } from '../audit/audit.repository';
import type { AuditTrail } from '../audit/audit-trail';
import type { TeamSettingsRecord, TeamsRepository } from '../teams/teams.repository';
import type { UsersRepository } from '../users/users.repository';
import type { InvitationRow, MemberRow, MembersRepository } from './members.repository';

const INVITATION_DAYS = 7;
const LAST_ADMIN = 'A team needs at least one admin: make another member an admin first.';
const INVALID_LINK = 'This invitation link is not valid: it was used, withdrawn or has expired. Ask an admin of the team for a new one.';

/** The team's test numbers as given (blanks left out, each read as a phone number), stored once each; 422 naming each one that is not a number. */
function testNumbersOf(given: string[], defaultCountry: string): string[] {
  const errors: Record<string, string[]> = {};
  const numbers: string[] = [];
  given.forEach((text, index) => {
    if (text === '') return;
    const number = normalizePhoneNumber(text, defaultCountry);
    if (number.ok) numbers.push(number.number);
    else errors[`test_numbers.${index}`] = [`The test number ${JSON.stringify(text)} ${number.reason}.`];
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return [...new Set(numbers)];
}

/** Members of a team, their roles, invitations by e-mail, and the team's settings. */
export function createMembersService(deps: {
  db: Db;
  passwords: Pick<Passwords, 'hash'>;
  members: MembersRepository;
  users: Pick<UsersRepository, 'findByEmail' | 'findById' | 'insert'>;
  teams: Pick<TeamsRepository, 'addMember' | 'settingsOf' | 'updateSettings'>;
  outbox: Pick<AccountMailRepository, 'enqueue'>;
  /** An invitation accepted (by someone not yet signed in), recorded as such. */
  audit: Pick<AuditRepository, 'record'>;
  /** Every change an admin makes, recorded in its transaction. */
  trail: AuditTrail;
  clock: Clock;
  config: { appTimezone: string; publicUrl: string; defaultCountry: string };
  /** Forgets who tokens are: a member's role or membership changed. */
  forgetTokenOwners: () => void;
}) {
  const zone = deps.config.appTimezone;
  const presentMember = (row: MemberRow): Member => ({
    uuid: row.uuid,
    email: row.email,
    name: row.name,
    role: row.role,
    joined_at: formatTimestamp(row.joinedAt, zone),
    last_seen_at: formatTimestamp(row.lastSeenAt, zone),
  });
  const presentInvitation = (row: InvitationRow): Invitation => ({
    uuid: row.uuid,
    email: row.email,
    role: row.role,
    invited_by: row.invitedBy ?? '',
    created_at: formatTimestamp(row.createdAt, zone),
    expires_at: formatTimestamp(row.expiresAt, zone),
  });
  const usable = (row: InvitationRow | undefined): row is InvitationRow =>
    row !== undefined && row.acceptedAt === null && row.expiresAt.getTime() > deps.clock.now().getTime();

  /** Changes a member's role or removes them, never leaving the team without an admin. */
  async function changeMember(auth: AuthContext, userUuid: string, change: { role: Role } | 'remove'): Promise<Member | null> {
    const changed = await deps.db.transaction(async (tx) => {
      const admins = await deps.members.lockAdmins(tx, auth.teamId);
      const member = await deps.members.findMember(tx, auth.teamId, userUuid);
      if (!member) throw new NotFoundError('The requested member was not found.');
      const losesAdmin = member.role === 'admin' && (change === 'remove' || change.role !== 'admin');
      if (losesAdmin && admins <= 1) throw new ConflictError(LAST_ADMIN);
      const before = presentMember(member);
      if (change === 'remove') {
        await deps.members.remove(tx, auth.teamId, member.userId);
        await deps.trail.record(tx, auth, { resourceType: 'member', resourceUuid: userUuid, before });
        return null;
      }
      await deps.members.setRole(tx, auth.teamId, member.userId, change.role);
      const after = presentMember({ ...member, role: change.role });
      await deps.trail.record(tx, auth, { resourceType: 'member', resourceUuid: userUuid, before, after });
      return after;
    });
    // This process's requests see the change at once; other processes hear of it (auth_changed).
    deps.forgetTokenOwners();
    return changed;
  }

  /** The team's settings as their GET shows them, read in `conn` (`lock`: the "before" of a change). */
  async function settingsIn(conn: Conn, auth: AuthContext, lock = false): Promise<TeamSettings> {
    const team = await deps.teams.settingsOf(auth.teamId, conn, lock);
    return {
      name: team.name,
      approval_threshold: team.approvalThreshold,
      confirm_threshold: team.confirmThreshold,
      price_per_segment: team.pricePerSegment,
      currency: team.currency,
      time_zone: team.timeZone ?? deps.config.appTimezone,
      quiet_hours: team.quietHours,
      default_country: team.defaultCountry ?? deps.config.defaultCountry,
      opt_out_reply: team.optOutReply,
      opt_in_reply: team.optInReply,
      help_reply: team.helpReply,
      test_numbers: team.testNumbers,
      click_window_days: team.clickWindowDays,
      view_window_hours: team.viewWindowHours,
      frequency_cap:
        team.frequencyCapMessages === null || team.frequencyCapDays === null ? null : { messages: team.frequencyCapMessages, days: team.frequencyCapDays },
      double_opt_in: team.doubleOptIn,
    };
  }

  return {
    async listMembers(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.members.listMembers(auth.teamId, window);
      return { items: rows.map(presentMember), total };
    },

    /** One member, as a role change or a removal records it before the change. */
    async showMember(auth: AuthContext, userUuid: string): Promise<Member> {
      const member = await deps.members.findMember(deps.db, auth.teamId, userUuid);
      if (!member) throw new NotFoundError('The requested member was not found.');
      return presentMember(member);
    },

    setRole: (auth: AuthContext, userUuid: string, role: Role) => changeMember(auth, userUuid, { role }) as Promise<Member>,

    remove: async (auth: AuthContext, userUuid: string): Promise<void> => void (await changeMember(auth, userUuid, 'remove')),

    /** Invites an address: the e-mail with its single-use link is queued with the invitation. */
    async invite(auth: AuthContext, input: InvitationInput): Promise<Invitation> {
      const email = input.email.trim();
      const [team, inviter] = await Promise.all([deps.teams.settingsOf(auth.teamId), deps.users.findById(auth.userId)]);
      const teamName = team.name;
      const inviterName = inviter?.name ?? 'A member';
      const secret = linkSecret();
      return deps.db.transaction(async (tx) => {
        if (await deps.members.isMemberByEmail(tx, auth.teamId, email)) throw ValidationError.field('email', 'This address is already a member of the team.');
        const row = await deps.members.invite(tx, {
          teamId: auth.teamId,
          email,
          role: input.role,
          tokenHash: tokenDigest(secret),
          invitedBy: auth.userId,
          expiresAt: new Date(deps.clock.now().getTime() + INVITATION_DAYS * 86_400_000),
        });
        await deps.outbox.enqueue(tx, [
          {
            to: email,
            subject: `${inviterName} invited you to ${teamName} on Herald`,
            body: [
              `${inviterName} invited you to join the team "${teamName}" on Herald as ${input.role === 'admin' ? 'an admin' : `an ${input.role}`}.`,
              '',
              `Open this link within ${INVITATION_DAYS} days to accept (it works once):`,
              `${deps.config.publicUrl}/invitation#${secret}`,
              '',
              'If you did not expect this invitation, you can ignore this e-mail.',
            ].join('\n'),
          },
        ]);
        const invitation = presentInvitation(row);
        await deps.trail.record(tx, auth, { resourceType: 'invitation', resourceUuid: invitation.uuid, after: invitation });
        return invitation;
      });
    },

    async listInvitations(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.members.listPending(auth.teamId, window);
      return { items: rows.map(presentInvitation), total };
    },

    /** Withdraws an invitation; its event names it (an invitation has no GET to show it before). */
    async withdraw(auth: AuthContext, uuid: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        if (!(await deps.members.withdraw(auth.teamId, uuid, tx))) throw new NotFoundError('The requested invitation was not found.');
        await deps.trail.record(tx, auth, { resourceType: 'invitation', resourceUuid: uuid, created: false });
      });
    },

    /** What a link invites to, for the page that accepts it; a used, withdrawn or expired link is unknown. */
    async preview(secret: string): Promise<InvitationPreview> {
      const row = await deps.members.findByDigest(deps.db, tokenDigest(secret));
      if (!usable(row)) throw new NotFoundError(INVALID_LINK);
      const existing = await deps.users.findByEmail(row.email);
      return {
        team_name: row.teamName,
        email: row.email,
        role: row.role,
        existing_user: existing !== undefined,
        expires_at: formatTimestamp(row.expiresAt, zone),
      };
    },

    /** Joins the team: an existing account as it is, a new person with the name and password they chose. */
    async accept(input: InvitationAccept, ip: string | null): Promise<InvitationAccepted> {
      return deps.db.transaction(async (tx) => {
        const row = await deps.members.findByDigest(tx, tokenDigest(input.token));
        if (!usable(row)) throw new NotFoundError(INVALID_LINK);
        let user = await deps.users.findByEmail(row.email, tx);
        if (!user) {
          const errors: Record<string, string[]> = {};
          if (!input.name) errors.name = ['The name field is required.'];
          if (!input.password) errors.password = ['The password field is required.'];
          if (Object.keys(errors).length > 0) throw new ValidationError(errors);
          user = await deps.users.insert(tx, {
            email: row.email,
            name: input.name!,
            passwordHash: await deps.passwords.hash(input.password!),
            currentTeamId: row.teamId,
          });
        }
        if (!(await deps.members.isMemberByEmail(tx, row.teamId, row.email))) await deps.teams.addMember(tx, row.teamId, user.id, row.role);
        await deps.members.markAccepted(tx, row.id);
        await deps.audit.record(
          {
            teamId: row.teamId,
            actor: { kind: 'user', uuid: user.uuid, name: user.name },
            action: 'acceptInvitation',
            resourceType: 'invitation',
            resourceUuid: row.uuid,
            changes: { role: { after: row.role } },
            ip,
          },
          tx,
        );
        return { email: user.email, team: { uuid: row.teamUuid, name: row.teamName, role: row.role } };
      });
    },

    settings: (auth: AuthContext): Promise<TeamSettings> => settingsIn(deps.db, auth),

    async updateSettings(auth: AuthContext, input: TeamSettingsInput): Promise<TeamSettings> {
      const testNumbers = input.test_numbers === undefined ? undefined : testNumbersOf(input.test_numbers, deps.config.defaultCountry);
      const changes: Partial<TeamSettingsRecord> = {
        name: input.name,
        approvalThreshold: input.approval_threshold,
        confirmThreshold: input.confirm_threshold,
        pricePerSegment: input.price_per_segment,
        currency: input.currency,
        timeZone: input.time_zone,
        quietHours: input.quiet_hours,
        defaultCountry: input.default_country,
        optOutReply: input.opt_out_reply,
        optInReply: input.opt_in_reply,
        helpReply: input.help_reply,
        testNumbers,
        clickWindowDays: input.click_window_days,
        viewWindowHours: input.view_window_hours,
        // Both columns or neither: null turns the cap off.
        frequencyCapMessages: input.frequency_cap === undefined ? undefined : (input.frequency_cap?.messages ?? null),
        frequencyCapDays: input.frequency_cap === undefined ? undefined : (input.frequency_cap?.days ?? null),
        doubleOptIn: input.double_opt_in,
      };
      return deps.db.transaction(async (tx) => {
        const before = await settingsIn(tx, auth, true);
        try {
          await deps.teams.updateSettings(auth.teamId, Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)), tx);
        } catch (error) {
          if (isUniqueViolation(error, 'teams_name_key')) throw ValidationError.field('name', 'The name has already been taken.');
          throw error;
        }
        const after = await settingsIn(tx, auth);
        await deps.trail.record(tx, auth, { resourceType: 'team', resourceUuid: null, before, after });
        return after;
      });
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
