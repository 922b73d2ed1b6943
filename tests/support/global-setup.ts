import type { TestProject } from "vitest/node";
import { startThrowawayPostgres } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

// Integration tests run on SQLite and on a real PostgreSQL: TEST_DATABASE_URL when given,
// otherwise a cluster started here for this run and stopped after it.
export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide("postgresUrl", given);
    return;
  }
  const postgres = await startThrowawayPostgres();
  project.provide("postgresUrl", postgres.url);
  return async () => {
    await postgres.stop();
  };
}
