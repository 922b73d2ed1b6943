import { type Expression, type RawBuilder, sql } from "kysely";
import { type Db, isPostgres } from "./client.server";

/**
 * Rows of a subquery as one JSON value, so that one statement can read what would otherwise take
 * several (on PostgreSQL each statement is a round trip). Written for both engines: PostgreSQL's
 * json_agg and SQLite's json_group_array, each with ORDER BY inside the aggregate, so the order is
 * the statement's own and not left to chance. Read the result with `fromJson`.
 */

/** One JSON array per row, of these values in this order. */
export function jsonTuple(db: Db, values: Expression<unknown>[]): RawBuilder<unknown> {
  return isPostgres(db) ? sql`json_build_array(${sql.join(values)})` : sql`json_array(${sql.join(values)})`;
}

/** The rows' `value`s as a JSON array in the given order; `[]` when there are none. */
export function jsonArray<T>(db: Db, value: Expression<unknown>, orderBy: Expression<unknown>[]): RawBuilder<T[]> {
  return isPostgres(db)
    ? sql<T[]>`coalesce(json_agg(${value} order by ${sql.join(orderBy)}), '[]'::json)`
    : sql<T[]>`json_group_array(${value} order by ${sql.join(orderBy)})`;
}

/** A value made by `jsonArray`: the driver parses PostgreSQL's json, SQLite gives text. */
export function fromJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
