import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/db/client.server";
import { migrateToLatest } from "~/db/migrate.server";
import { startThrowawayPostgres } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
    /** a PostgreSQL database migrated to the latest schema, copied by freshDatabase (tests/support/databases.ts) */
    postgresTemplate: string;
    /** a SQLite file migrated to the latest schema, copied by freshDatabase */
    sqliteTemplate: string;
  }
}

// Integration tests run on SQLite and on a real PostgreSQL: TEST_DATABASE_URL when given,
// otherwise a cluster started here for this run and stopped after it.
// The schema is migrated once here, into a template on each engine; every fresh test database is a copy
// of it, rather than running the migrations again in each of the ~160 test databases a run makes.
export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  const postgres = given ? null : await startThrowawayPostgres();
  const postgresUrl = given ?? postgres!.url;
  project.provide("postgresUrl", postgresUrl);

  const templateName = `t_template_${randomBytes(6).toString("hex")}`;
  await adminQuery(postgresUrl, `create database ${templateName}`);
  const templateUrl = new URL(postgresUrl);
  templateUrl.pathname = `/${templateName}`;
  const template = await openDatabase({ databaseUrl: templateUrl.toString(), sqlitePath: "", poolSize: 1 });
  await migrateToLatest(template.db);
  await template.close();
  project.provide("postgresTemplate", templateName);

  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-sqlite-template-"));
  const sqliteTemplate = path.join(sqliteDir, "shop.db");
  const sqlite = await openDatabase({ databaseUrl: null, sqlitePath: sqliteTemplate });
  await migrateToLatest(sqlite.db);
  await sqlite.close();
  project.provide("sqliteTemplate", sqliteTemplate);

  return async () => {
    fs.rmSync(sqliteDir, { recursive: true, force: true });
    if (postgres) await postgres.stop();
    else await adminQuery(postgresUrl, `drop database if exists ${templateName} with (force)`);
  };
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
