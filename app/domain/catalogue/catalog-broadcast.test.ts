import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { CATALOG_CHANNEL, type CatalogBroadcast, noticeText, readNotice, startCatalogBroadcast } from "./catalog-broadcast.server";
import { type CatalogScope, catalogChanged } from "./catalog.server";

/** Waits until `check` is true, for at most `ms`; returns how long it took. */
async function within(ms: number, check: () => boolean): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

describe("catalogue changes between instances on PostgreSQL", () => {
  let t: TestDatabase;
  let other: pg.Client;
  const heard: string[] = [];
  const broadcasts: CatalogBroadcast[] = [];

  beforeAll(async () => {
    t = await freshDatabase("postgres");
    // Another instance, as PostgreSQL sees it: a connection listening and sending on the channel.
    other = new pg.Client({ connectionString: t.url! });
    await other.connect();
    other.on("notification", (message) => heard.push(message.payload ?? ""));
    await other.query(`listen ${CATALOG_CHANNEL}`);
  });
  afterAll(async () => {
    for (const b of broadcasts) await b.stop();
    await other?.end();
    await t?.drop();
  });

  /** Ends every listening connection but the test's own, as a dropped network would. */
  async function cutListeningConnections() {
    const { rows } = await other.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and query ilike $1 and pid <> pg_backend_pid()",
      [`listen ${CATALOG_CHANNEL}`],
    );
    expect(rows.length).toBeGreaterThan(0);
    await other.query("select pg_terminate_backend(pid) from pg_stat_activity where pid = any($1::int[])", [rows.map((r) => r.pid)]);
  }

  function start(onRemoteChange: (scope: CatalogScope) => void) {
    const broadcast = startCatalogBroadcast({ databaseUrl: t.url!, onRemoteChange });
    broadcasts.push(broadcast);
    return broadcast;
  }

  it("empties this instance's pages within a second of another instance's change, and not on its own notices", async () => {
    let remote = 0;
    const broadcast = start(() => remote++);
    await broadcast.ready;

    await other.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, "instance-b"]);
    const took = await within(1000, () => remote === 1);
    expect(took).toBeLessThan(1000);

    // Its own notice (the same id) is not a remote change.
    await other.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, broadcast.instanceId]);
    await new Promise((r) => setTimeout(r, 200));
    expect(remote).toBe(1);
  });

  it("announces every local catalogue change with its own id", async () => {
    const broadcast = start(() => {});
    await broadcast.ready;
    heard.length = 0;
    catalogChanged();
    await within(1000, () => heard.includes(broadcast.instanceId));
  });

  it("tells the other instances which products an order took stock from, and they hear it as such (docs/decisions/205)", async () => {
    const scopes: CatalogScope[] = [];
    const broadcast = start((scope) => scopes.push(scope));
    await broadcast.ready;
    heard.length = 0;
    catalogChanged("here", { ordered: [12, 40] });
    await within(1000, () => heard.includes(`${broadcast.instanceId} 12,40`));
    // (The instances of the tests above, in this same process, announce that change too.)
    await new Promise((r) => setTimeout(r, 200));
    scopes.length = 0;

    await other.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, "instance-e 7,8"]);
    // An older instance's notice, or one not plainly made: a change to anything.
    await other.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, "instance-e"]);
    await other.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, "instance-e 7,x"]);
    await within(1000, () => scopes.length === 3);
    expect(scopes).toEqual([{ ordered: [7, 8] }, "anything", "anything"]);
  });

  it("reads back what it writes, and sends a change to anything when the products would not fit a notice", () => {
    expect(readNotice(noticeText("abc", { ordered: [1, 22, 333] }))).toEqual({ from: "abc", scope: { ordered: [1, 22, 333] } });
    expect(readNotice(noticeText("abc", "anything"))).toEqual({ from: "abc", scope: "anything" });
    const many = Array.from({ length: 2_000 }, (_, i) => 1_000_000 + i);
    expect(noticeText("abc", { ordered: many })).toBe("abc");
    for (const text of ["abc ", "abc 1,,2", "abc 1 2", "abc 12345678901", "abc -1"]) expect(readNotice(text).scope).toBe("anything");
  });

  it("does not announce again a change heard from another instance (server.ts calls catalogChanged(\"elsewhere\"))", async () => {
    let remote = 0;
    const broadcast = start(() => {
      remote++;
      catalogChanged("elsewhere");
    });
    await broadcast.ready;
    heard.length = 0;
    await other.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, "instance-d"]);
    await within(1000, () => remote === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual(["instance-d"]);
  });

  it("reconnects when its connection is cut, and starts afresh since it may have missed changes", async () => {
    let remote = 0;
    const broadcast = start(() => remote++);
    await broadcast.ready;
    await cutListeningConnections();

    // Back within a few seconds: the reconnection itself counts as a change (pages are emptied once)...
    await within(5000, () => remote >= 1);
    const afterReconnect = remote;
    // ...and notices reach it again.
    await other.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, "instance-c"]);
    await within(1000, () => remote === afterReconnect + 1);
  });

  it("announces a change made while its connection was down once it is back", async () => {
    let remote = 0;
    const broadcast = start(() => remote++);
    await broadcast.ready;
    await cutListeningConnections();
    // The listening connection is gone before it is replaced (the first retry waits 250 ms).
    await new Promise((r) => setTimeout(r, 60));
    heard.length = 0;
    catalogChanged();
    await within(5000, () => remote >= 1);
    // Announced after reconnecting, not lost.
    await within(2000, () => heard.includes(broadcast.instanceId));
  });
});
