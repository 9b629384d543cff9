import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/client';
import { ValidationError } from '../../lib/errors';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { TeamRow, TeamsRepository } from './teams.repository';

/** Interface §2.6: every team sends as `88440` and as its name stripped to letters and digits, at most 11 characters. */
export function defaultSendersFor(teamName: string): string[] {
  const fromName = teamName.replace(/[^A-Za-z0-9]/g, '').slice(0, 11);
  return fromName.length >= 3 && fromName !== SHORT_CODE_SENDER ? [SHORT_CODE_SENDER, fromName] : [SHORT_CODE_SENDER];
}

export function createTeamsService(deps: { db: Db; teams: TeamsRepository; suppressions: Pick<Suppressions, 'createList'> }) {
  return {
    /** Creates the team with its defaults; a name another team holds (any case) is refused. */
    async create(name: string, tx?: Tx): Promise<TeamRow> {
      const trimmed = name.trim();
      if (trimmed.length === 0 || trimmed.length > 100) throw ValidationError.field('name', 'The team name must be between 1 and 100 characters.');
      const insert = async (t: Tx) => {
        const team = await deps.teams.insertWithDefaults(t, trimmed, defaultSendersFor(trimmed));
        await deps.suppressions.createList(t, team.id);
        return team;
      };
      try {
        return tx ? await insert(tx) : await deps.db.transaction(insert);
      } catch (error) {
        if (isUniqueViolation(error, 'teams_name_key')) throw ValidationError.field('name', 'The team name has already been taken.');
        throw error;
      }
    },

    async findOrCreate(name: string, tx: Tx): Promise<{ team: TeamRow; created: boolean }> {
      const existing = await deps.teams.findByName(name.trim(), tx);
      if (existing) return { team: existing, created: false };
      return { team: await this.create(name, tx), created: true };
    },
  };
}
export type TeamsService = ReturnType<typeof createTeamsService>;
