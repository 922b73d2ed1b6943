import type { Db } from "~/db/client.server";

/**
 * The same database, counting the statements run through it (each one a round trip on PostgreSQL):
 * for tests that hold a read to the number of statements it takes.
 */
export function countingStatements(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  // A query's plugins also see each subquery built in it; only its result is one per statement.
  const kinds = new Map<unknown, string>();
  const counted = db.withPlugin({
    transformQuery(args) {
      kinds.set(args.queryId, args.node.kind);
      return args.node;
    },
    async transformResult(args) {
      statements.push(kinds.get(args.queryId) ?? "unknown");
      return args.result;
    },
  });
  return { db: counted, statements };
}
