import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type DatabaseHandle, type Engine, openDatabase } from "~/db/client.server";
import { migrateToLatest } from "~/db/migrate.server";

export const ENGINES: Engine[] = ["sqlite", "postgres"];

export interface TestDatabase extends DatabaseHandle {
  /** closes the connection and removes the database */
  drop(): Promise<void>;
  /** the postgres:// URL of the database (null on SQLite, whose file is `location`) */
  url: string | null;
}

/**
 * A new, empty, migrated database on the given engine: a temp SQLite file, or a new PostgreSQL database.
 * Migrated means copied from the template the global setup migrated once (tests/support/global-setup.ts);
 * `migrate: false` gives an empty database for the migrations' own tests.
 */
export async function freshDatabase(engine: Engine, { migrate = true } = {}): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  let handle: DatabaseHandle;
  let remove: () => Promise<void>;
  let databaseUrl: string | null = null;
  if (engine === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-sqlite-"));
    // The template was closed cleanly, so its whole content is in the one file (no WAL beside it).
    if (migrate) fs.copyFileSync(inject("sqliteTemplate"), path.join(dir, "shop.db"));
    handle = await openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, "shop.db") });
    remove = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const adminUrl = inject("postgresUrl");
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(migrate ? `create database ${name} template ${inject("postgresTemplate")}` : `create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    handle = await openDatabase({ databaseUrl, sqlitePath: "" });
    remove = async () => {
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  }
  // Already migrated: this finds nothing left to run, and checks the copy is at the latest schema.
  if (migrate) await migrateToLatest(handle.db);
  return {
    ...handle,
    url: databaseUrl,
    async drop() {
      await handle.close();
      await remove();
    },
  };
}
