import { type CompiledQuery, type Expression, sql } from "kysely";
import { type Db, isPostgres } from "./client.server";

/** Where one of a call's values goes in a statement built once. */
class Slot {
  constructor(readonly index: number) {}
}

type AsExpressions<Values extends unknown[]> = { [K in keyof Values]: Expression<Values[K]> };
/** A query builder's statement, or raw SQL (which compiles for a database). */
type Statement<Row> = { compile(db: Db): CompiledQuery<Row> };

/**
 * A statement of fixed shape, built and compiled by the query builder once per engine, then run with
 * each call's values (docs/decisions/164). The statements every page of a shopper with a cart or a
 * session runs are nested selects; building and compiling them cost about as much as SQLite took to
 * run them.
 *
 * `build` receives the values as expressions to place in the statement, and must give a statement of
 * the same text whatever the values are: it must not branch on them (a statement of another shape is
 * another `builtOnce`).
 */
export function builtOnce<Values extends unknown[], Row>(build: (db: Db, ...values: AsExpressions<Values>) => Statement<Row>) {
  const compiled: { sqlite?: CompiledQuery<Row>; postgres?: CompiledQuery<Row> } = {};
  return async function run(db: Db, ...values: Values): Promise<Row[]> {
    // A database with plugins (tests that count statements) has them see every statement it builds.
    if (db.getExecutor().plugins.length > 0) return (await db.executeQuery(build(db, ...(values.map((value) => sql.val(value)) as AsExpressions<Values>)).compile(db))).rows;
    const engine = isPostgres(db) ? "postgres" : "sqlite";
    let query = compiled[engine];
    if (query === undefined) {
      const slots = values.map((_, index) => sql.val(new Slot(index))) as AsExpressions<Values>;
      query = compiled[engine] = build(db, ...slots).compile(db);
    }
    const parameters = query.parameters.map((parameter) => (parameter instanceof Slot ? values[parameter.index] : parameter));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
