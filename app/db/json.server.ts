import { type Expression, type RawBuilder, sql } from "kysely";
import { type Db, isPostgres } from "./client.server";

/**
 * Rows of a subquery as one JSON value, so that one statement can read what would otherwise take
 * several (on PostgreSQL each statement is a round trip). Written for both engines: PostgreSQL's
 * json_agg and SQLite's json_group_array. Read the result with `fromJson`.
 *
 * The array comes in no particular order: its reader sorts it, reading the sort keys with the values
 * when it needs an order. An ORDER BY inside the aggregate made SQLite fill and sort a temporary table
 * on every call, and inside a subquery run for each row (the session's cart and hearts) that cost
 * 20–50 µs for a handful of rows, on every page a signed-in shopper opened (docs/decisions/170).
 */

/** One JSON array per row, of these values in this order. */
export function jsonTuple(db: Db, values: Expression<unknown>[]): RawBuilder<unknown> {
  return isPostgres(db) ? sql`json_build_array(${sql.join(values)})` : sql`json_array(${sql.join(values)})`;
}

/** The rows' `value`s as a JSON array, in no particular order; `[]` when there are none. */
export function jsonArray<T>(db: Db, value: Expression<unknown>): RawBuilder<T[]> {
  return isPostgres(db) ? sql<T[]>`coalesce(json_agg(${value}), '[]'::json)` : sql<T[]>`json_group_array(${value})`;
}

/** Ids read with `jsonArray`, ascending. */
export function ascendingIds(value: unknown): number[] {
  return fromJson<number[]>(value).sort((a, b) => a - b);
}

/** A value made by `jsonArray`: the driver parses PostgreSQL's json, SQLite gives text. */
export function fromJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
