import { type Expression, type RawBuilder, sql } from "kysely";

/** "50%_off" -> "%50\%\_off%": a case-insensitive "contains" pattern with the wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** lower(column) LIKE pattern, with backslash as the escape character on both engines. */
export function containsText(column: Expression<string> | RawBuilder<string>, term: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${column}) like ${containsPattern(term)} escape '\\'`;
}
