import { count, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { stampsOf, type Clock } from '../../lib/time';

export type UserRow = typeof users.$inferSelect;

export function createUsersRepository(db: Db, clock: Clock) {
  return {
    async findByEmail(email: string, tx: Tx | Db = db): Promise<UserRow | undefined> {
      const [user] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`);
      return user;
    },

    async findById(id: number, tx: Tx | Db = db): Promise<UserRow | undefined> {
      const [user] = await tx.select().from(users).where(eq(users.id, id));
      return user;
    },

    async insert(tx: Tx, user: { email: string; name: string; passwordHash: string; currentTeamId: number }): Promise<UserRow> {
      const [row] = await tx
        .insert(users)
        .values({ ...user, ...stampsOf(clock) })
        .returning();
      if (!row) throw new Error('user insert returned no row');
      return row;
    },

    async setCurrentTeam(userId: number, teamId: number, tx: Tx | Db = db): Promise<void> {
      await tx.update(users).set({ currentTeamId: teamId, updatedAt: clock.now() }).where(eq(users.id, userId));
    },

    async setName(userId: number, name: string, conn: Tx | Db = db): Promise<void> {
      await conn.update(users).set({ name, updatedAt: clock.now() }).where(eq(users.id, userId));
    },

    async setPhoneNumber(userId: number, phoneNumber: string | null, conn: Tx | Db = db): Promise<void> {
      await conn.update(users).set({ phoneNumber, updatedAt: clock.now() }).where(eq(users.id, userId));
    },

    async setPasswordHash(tx: Tx | Db, userId: number, passwordHash: string): Promise<void> {
      await tx.update(users).set({ passwordHash, updatedAt: clock.now() }).where(eq(users.id, userId));
    },

    async count(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(users);
      return row?.value ?? 0;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
