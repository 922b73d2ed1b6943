import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

/**
 * A throwaway PostgreSQL cluster for the test run: initdb into a temporary folder, start it on a
 * free 127.0.0.1 port, and remove it all afterwards. initdb refuses to run as root, so as root the
 * commands run as the postgres user.
 */

function findBinDir(): string {
  const candidates = [process.env.PG_BIN, ...listInstalledVersions()].filter(Boolean) as string[];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, "pg_ctl")));
  if (!found) {
    throw new Error(
      "PostgreSQL server binaries not found (looked in PG_BIN and /usr/lib/postgresql/*/bin). " +
        "Install them (apt-get install -y postgresql) or set TEST_DATABASE_URL.",
    );
  }
  return found;
}

function listInstalledVersions(): string[] {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(root, v, "bin"));
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  execFileSync(cmd, argv, { stdio: "pipe" });
}

export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = findBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-pg-"));
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  try {
    run(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
    // Durability is not what these tests check; speed is welcome.
    const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-l", path.join(dir, "server.log"), "-o", options, "-w", "-t", "60", "start"]);
  } catch (error) {
    const log = fs.existsSync(path.join(dir, "server.log")) ? fs.readFileSync(path.join(dir, "server.log"), "utf8") : "";
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not start a throwaway PostgreSQL: ${(error as Error).message}\n${stderr}\n${log}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
