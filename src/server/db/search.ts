import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** A LIKE pattern that finds `text` anywhere in a value: `%`, `_` and `\` in the text match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * `column` contains `text`, ignoring case and accents ("chloe" finds "Chloé"): both folded by
 * herald_fold (migration 0038), so the rule is the database's alone.
 */
export function containsFoldedText(column: PgColumn | SQL, text: string): SQL {
  return sql`herald_fold(${column}) ILIKE herald_fold(${containsPattern(text)}) ESCAPE '\\'`;
}

/** `column` contains `text`, ignoring case: a list's `search` (docs/api-conventions.md#lists). */
export function containsText(column: PgColumn | SQL, text: string): SQL {
  return sql`${column} ILIKE ${containsPattern(text)} ESCAPE '\\'`;
}
