import { MEMBER_SORT, type SortFieldOf } from '../../../shared/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow, orderOf, type ListOrder } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';
import type { Role } from '../../../shared/contract';

const RoleSchema = z.enum(['admin', 'editor', 'viewer']);

const MemberRowSchema = z.object({
  userId: z.number(),
  uuid: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  joinedAt: MomentSchema,
  lastSeenAt: MomentSchema.nullable(),
});
export type MemberRow = z.infer<typeof MemberRowSchema>;

const InvitationRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  email: z.string(),
  role: RoleSchema,
  invitedBy: z.string().nullable(),
  createdAt: MomentSchema,
  expiresAt: MomentSchema,
  acceptedAt: MomentSchema.nullable(),
});
export type InvitationRow = z.infer<typeof InvitationRowSchema>;

const memberColumns = sql`u.id::int AS "userId", u.uuid::text AS uuid, u.email, u.name, m.role, m.created_at AS "joinedAt",
  (SELECT max(t.last_used_at) FROM api_tokens t WHERE t.user_id = u.id) AS "lastSeenAt"`;

const invitationColumns = sql`i.id::int AS id, i.uuid::text AS uuid, i.team_id::int AS "teamId", i.email, i.role, inviter.name AS "invitedBy",
  i.created_at AS "createdAt", i.expires_at AS "expiresAt", i.accepted_at AS "acceptedAt"`;

/** A team's members and its pending invitations (migration 0024). */
/** The list's `sort` (MEMBER_SORT). */
const ORDER: ListOrder<SortFieldOf<typeof MEMBER_SORT>> = {
  sort: MEMBER_SORT,
  columns: { name: sql`lower(u.name)`, email: sql`lower(u.email)`, joined_at: sql`m.created_at` },
  tiebreak: sql`u.id`,
};

export function createMembersRepository(db: Db, clock: Clock) {
  return {
    listMembers(teamId: number, window: PageWindow): Promise<Page<MemberRow>> {
      return readPage({
        rows: rowsOf(
          db,
          MemberRowSchema,
          sql`SELECT ${memberColumns} FROM memberships m JOIN users u ON u.id = m.user_id
               WHERE m.team_id = ${teamId} ORDER BY ${orderOf(ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM memberships WHERE team_id = ${teamId}`),
      });
    },

    /** A member of the team, locked against a concurrent change of the team's admins when in a transaction. */
    findMember(conn: Conn, teamId: number, userUuid: string): Promise<MemberRow | undefined> {
      return firstRowOf(
        conn,
        MemberRowSchema,
        sql`SELECT ${memberColumns} FROM memberships m JOIN users u ON u.id = m.user_id
             WHERE m.team_id = ${teamId} AND u.uuid::text = ${userUuid} FOR UPDATE OF m`,
      );
    },

    /** The team's admins, locked: two admins demoting each other at once cannot leave none. */
    async lockAdmins(conn: Conn, teamId: number): Promise<number> {
      const rows = await rowsOf(
        conn,
        z.object({ userId: z.number() }),
        sql`SELECT user_id::int AS "userId" FROM memberships WHERE team_id = ${teamId} AND role = 'admin' FOR UPDATE`,
      );
      return rows.length;
    },

    async setRole(conn: Conn, teamId: number, userId: number, role: Role): Promise<void> {
      await conn.execute(sql`UPDATE memberships SET role = ${role} WHERE team_id = ${teamId} AND user_id = ${userId}`);
    },

    /** Removes a member and revokes their tokens of this team; a user left in no team keeps no current team. */
    async remove(conn: Conn, teamId: number, userId: number): Promise<void> {
      const now = clock.now();
      await conn.execute(sql`DELETE FROM memberships WHERE team_id = ${teamId} AND user_id = ${userId}`);
      await conn.execute(sql`UPDATE api_tokens SET revoked_at = ${now} WHERE user_id = ${userId} AND team_id = ${teamId} AND revoked_at IS NULL`);
      await conn.execute(sql`
        UPDATE users SET current_team_id = (SELECT min(team_id) FROM memberships WHERE user_id = ${userId}), updated_at = ${now}
         WHERE id = ${userId} AND current_team_id = ${teamId}`);
    },

    async isMemberByEmail(conn: Conn, teamId: number, email: string): Promise<boolean> {
      const { total } = await oneRowOf(
        conn,
        z.object({ total: z.number() }),
        sql`SELECT count(*)::int AS total FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.team_id = ${teamId} AND lower(u.email) = lower(${email})`,
      );
      return total > 0;
    },

    /** A new invitation; a pending one to the same address in the team is replaced (its link stops working). */
    async invite(
      conn: Conn,
      invitation: { teamId: number; email: string; role: Role; tokenHash: Buffer; invitedBy: number; expiresAt: Date },
    ): Promise<InvitationRow> {
      await conn.execute(
        sql`DELETE FROM team_invitations WHERE team_id = ${invitation.teamId} AND lower(email) = lower(${invitation.email}) AND accepted_at IS NULL`,
      );
      const { id } = await oneRowOf(
        conn,
        z.object({ id: z.number() }),
        sql`INSERT INTO team_invitations (team_id, email, role, token_hash, invited_by, created_at, expires_at)
            VALUES (${invitation.teamId}, ${invitation.email}, ${invitation.role}, ${invitation.tokenHash}, ${invitation.invitedBy}, ${clock.now()}, ${invitation.expiresAt})
            RETURNING id::int AS id`,
      );
      return oneRowOf(
        conn,
        InvitationRowSchema,
        sql`SELECT ${invitationColumns} FROM team_invitations i LEFT JOIN users inviter ON inviter.id = i.invited_by WHERE i.id = ${id}`,
      );
    },

    /** The team's invitations not yet accepted and not expired, newest first. */
    listPending(teamId: number, window: PageWindow): Promise<Page<InvitationRow>> {
      const now = clock.now();
      const pending = sql`i.team_id = ${teamId} AND i.accepted_at IS NULL AND i.expires_at > ${now}`;
      return readPage({
        rows: rowsOf(
          db,
          InvitationRowSchema,
          sql`SELECT ${invitationColumns} FROM team_invitations i LEFT JOIN users inviter ON inviter.id = i.invited_by
               WHERE ${pending} ORDER BY i.created_at DESC, i.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM team_invitations i WHERE ${pending}`),
      });
    },

    /** Withdraws a pending invitation: its link stops working. */
    async withdraw(teamId: number, uuid: string, conn: Conn = db): Promise<InvitationRow | undefined> {
      return firstRowOf(
        conn,
        InvitationRowSchema,
        sql`WITH gone AS (DELETE FROM team_invitations WHERE team_id = ${teamId} AND uuid::text = ${uuid} AND accepted_at IS NULL RETURNING *)
            SELECT ${invitationColumns} FROM gone i LEFT JOIN users inviter ON inviter.id = i.invited_by`,
      );
    },

    /** The invitation a link's digest names, with its team's name, locked when in a transaction. */
    findByDigest(conn: Conn, tokenHash: Buffer): Promise<(InvitationRow & { teamUuid: string; teamName: string }) | undefined> {
      return firstRowOf(
        conn,
        InvitationRowSchema.extend({ teamUuid: z.string(), teamName: z.string() }),
        sql`SELECT ${invitationColumns}, tm.uuid::text AS "teamUuid", tm.name AS "teamName"
              FROM team_invitations i JOIN teams tm ON tm.id = i.team_id LEFT JOIN users inviter ON inviter.id = i.invited_by
             WHERE i.token_hash = ${tokenHash} FOR UPDATE OF i`,
      );
    },

    async markAccepted(conn: Conn, id: number): Promise<void> {
      await conn.execute(sql`UPDATE team_invitations SET accepted_at = ${clock.now()} WHERE id = ${id}`);
    },

    /** Admins of the team (e-mail and name), for e-mails that need one. */
    admins(conn: Conn, teamId: number): Promise<Array<{ userId: number; email: string; name: string }>> {
      return rowsOf(
        conn,
        z.object({ userId: z.number(), email: z.string(), name: z.string() }),
        sql`SELECT u.id::int AS "userId", u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.team_id = ${teamId} AND m.role = 'admin' ORDER BY u.id`,
      );
    },
  };
}
export type MembersRepository = ReturnType<typeof createMembersRepository>;
