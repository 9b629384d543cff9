import { createHmac } from 'node:crypto';
import type pg from 'pg';
import { quoteIdent } from './backup-format';

/** The role the embedded database's Herald serves with: it may read and write its tables, but never change or delete audit events. */
export const APP_ROLE = 'herald_app';

/**
 * The application role's password in the embedded database: derived one way from the superuser's
 * (DATA_DIR/postgres.password), so it needs no file of its own, yet knowing it (a leaked connection
 * string) gives nothing of the superuser's, which could lift the audit log's protection.
 */
export const appRolePassword = (superuserPassword: string): string => createHmac('sha256', superuserPassword).update(APP_ROLE).digest('base64url');

/**
 * Creates (or updates the password of) the embedded database's application role. Run by the
 * superuser, which owns the schema and runs the migrations.
 */
export async function ensureAppRole(owner: pg.Pool | pg.Client, role: string, password: string): Promise<void> {
  const exists = (await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount! > 0;
  // A password in a utility statement is a literal, not a parameter; it is base64url (no quotes).
  const literal = `'${password.replace(/'/g, "''")}'`;
  await owner.query(`${exists ? 'ALTER' : 'CREATE'} ROLE ${quoteIdent(role)} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${literal}`);
}

/**
 * Gives the application role what Herald needs on every table, sequence and function of the
 * schema, and takes back UPDATE, DELETE and TRUNCATE on `audit_events`: an application that runs
 * as that role cannot alter or remove the audit trail, whatever it sends (the trigger of migration
 * 0024 is a second guard, which the owner could drop). Run by the owner after every migration run,
 * so tables of later migrations are granted too; idempotent.
 */
export async function grantAppRole(owner: pg.Pool | pg.Client, role: string): Promise<void> {
  const r = quoteIdent(role);
  const schema = (await owner.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema;
  const s = quoteIdent(schema);
  // One simple-protocol query is one transaction: the role never holds UPDATE on audit_events between the GRANT and the REVOKE.
  await owner.query(
    [
      `GRANT USAGE ON SCHEMA ${s} TO ${r}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`,
      `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`,
      `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${r}`,
      `REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA ${s} FROM ${r}`,
      `REVOKE UPDATE, DELETE ON ${s}.audit_events FROM ${r}`,
    ].join(';\n'),
  );
}

/** The role a connection string logs in as (its user name), e.g. to grant it from the owner's connection. */
export async function currentRole(pool: pg.Pool): Promise<string> {
  return (await pool.query<{ role: string }>('SELECT current_user AS role')).rows[0]!.role;
}
