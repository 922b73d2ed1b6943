import SQLite from "better-sqlite3";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { loadPg } from "~/db/client.server";
import * as tar from "tar";
import type { Config } from "~/platform/config.server";
import { imagesDir } from "~/platform/images.server";

/**
 * Backups of a running shop and putting one back (docs/decisions/111). A backup is one gzipped tar
 * file: manifest.json, the database (a consistent copy made with SQLite's online backup API, or a
 * pg_dump in its custom format) and the image folder. Restoring unpacks and checks everything in a
 * scratch folder first and refuses a shop that already has data unless forced; what it replaces is
 * kept beside it, never deleted.
 */

const run = promisify(execFile);

export const BACKUP_APP = "unboxed";
export const BACKUP_FORMAT = 1;
const FILE_PATTERN = /^unboxed-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(-\d{3})?Z\.tar\.gz$/;
const SQLITE_FILE = "shop.db";
const PG_FILE = "db.dump";
/** the largest step better-sqlite3 passes to sqlite3_backup_step: every page of the database */
const ALL_PAGES = 0x7fffffff;
/** whole-database steps a SQLite backup may take before it gives up */
const SQLITE_BACKUP_TRIES = 5;
/** the counts a restore must find again */
const COUNTED = ["users", "products", "orders", "order_items"] as const;
type Counts = Record<(typeof COUNTED)[number], number>;

export interface Manifest {
  app: typeof BACKUP_APP;
  format: number;
  createdAt: string;
  engine: "sqlite" | "postgres";
  database: { file: string; sha256: string; bytes: number };
  images: number;
  counts: Counts;
}

/** A problem the owner can act on; its message is the whole story (the CLI prints only it). */
export class BackupError extends Error {}

type BackupConfig = Pick<Config, "dataDir" | "databaseUrl" | "sqlitePath" | "backup">;

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    fs.createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolve(hash.digest("hex")))
      .on("error", reject);
  });
}

/** pg_dump / pg_restore: PG_BIN, the newest /usr/lib/postgresql/N/bin, else the PATH. */
export function postgresTool(name: "pg_dump" | "pg_restore"): string {
  const dirs = [process.env.PG_BIN];
  const root = "/usr/lib/postgresql";
  if (fs.existsSync(root)) {
    for (const v of fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))) dirs.push(path.join(root, v, "bin"));
  }
  for (const dir of dirs) if (dir && fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  return name;
}

/** The URL without its password, and the password for PGPASSWORD (not on the command line). */
function splitPassword(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function countSqlite(file: string): Promise<Counts> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const counts = {} as Counts;
    for (const table of COUNTED) counts[table] = Number((db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);
    return counts;
  } finally {
    db.close();
  }
}

function sqliteIntegrity(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join("; ");
  } finally {
    db.close();
  }
}

async function countPostgres(url: string): Promise<Counts | null> {
  const client = new (await loadPg()).Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query("select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name = any($1)", [[...COUNTED]]);
    if (exists.rows[0].n < COUNTED.length) return null;
    const counts = {} as Counts;
    for (const table of COUNTED) counts[table] = Number((await client.query(`select count(*)::int as n from ${table}`)).rows[0].n);
    return counts;
  } finally {
    await client.end();
  }
}

function listImages(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

/**
 * pg_dump of one snapshot, with the row counts of that same snapshot (exported from a transaction
 * held open meanwhile): orders placed during the dump are either whole in it or absent.
 */
async function dumpPostgres(databaseUrl: string, dbFile: string): Promise<Counts> {
  const client = new (await loadPg()).Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const snapshot = (await client.query("select pg_export_snapshot() as id")).rows[0].id as string;
    const counts = {} as Counts;
    for (const table of COUNTED) counts[table] = Number((await client.query(`select count(*)::int as n from ${table}`)).rows[0].n);
    const { url, env } = splitPassword(databaseUrl);
    try {
      await run(postgresTool("pg_dump"), ["--format=custom", "--no-owner", "--no-privileges", `--snapshot=${snapshot}`, "--file", dbFile, "--dbname", url], {
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      throw new BackupError(`pg_dump failed: ${((error as { stderr?: string }).stderr ?? (error as Error).message).trim()}`);
    }
    await client.query("commit");
    return counts;
  } finally {
    await client.end();
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Manifest;
  /** older backups removed to keep the last N */
  removed: string[];
}

function stampOf(date: Date): string {
  return date.toISOString().replace(/:/g, "-").replace(/\.(\d{3})Z$/, "-$1Z");
}

/** Writes a backup of the shop under config.backup.dir and keeps the newest config.backup.keep. */
export async function createBackup(config: BackupConfig, now = new Date()): Promise<BackupResult> {
  fs.mkdirSync(config.backup.dir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(config.backup.dir, ".partial-"));
  try {
    const engine = config.databaseUrl ? "postgres" : "sqlite";
    let dbFile: string;
    let counts: Counts;
    if (engine === "sqlite") {
      if (!fs.existsSync(config.sqlitePath)) throw new BackupError(`There is no shop database at ${config.sqlitePath} to back up.`);
      dbFile = path.join(staging, SQLITE_FILE);
      const source = new SQLite(config.sqlitePath, { fileMustExist: true, timeout: 10_000 });
      try {
        // SQLite's online backup API: a consistent copy while the shop keeps taking orders
        // (docs/decisions/174). A commit by the shop between two steps makes the next step start again
        // from the first page, so every step after better-sqlite3's first (which only counts the pages)
        // asks for all of them: one step, in one read transaction, copies one moment whole, and in WAL
        // mode the shop's commits go on beside it. A step that still leaves pages behind is retried
        // a few times (a lock held for a moment), never for ever.
        let unfinished = 0;
        await source.backup(dbFile, {
          progress: ({ remainingPages }) => {
            // Called after the counting step, then after each whole step that did not finish.
            if (unfinished++ >= SQLITE_BACKUP_TRIES) {
              throw new BackupError(`The copy of the database did not finish: ${remainingPages} pages were still to copy after ${SQLITE_BACKUP_TRIES} tries.`);
            }
            return ALL_PAGES;
          },
        });
      } finally {
        source.close();
      }
      const integrity = sqliteIntegrity(dbFile);
      if (integrity !== "ok") throw new BackupError(`The copy of the database failed its integrity check: ${integrity}`);
      counts = await countSqlite(dbFile);
    } else {
      dbFile = path.join(staging, PG_FILE);
      counts = await dumpPostgres(config.databaseUrl!, dbFile);
    }

    // Images are written before the rows that name them and never changed, so copying them after the
    // database copy finds every picture it refers to.
    const images = imagesDir(config.dataDir);
    const names = listImages(images);
    fs.mkdirSync(path.join(staging, "images"));
    for (const name of names) fs.copyFileSync(path.join(images, name), path.join(staging, "images", name));

    const manifest: Manifest = {
      app: BACKUP_APP,
      format: BACKUP_FORMAT,
      createdAt: now.toISOString(),
      engine,
      database: { file: path.basename(dbFile), sha256: await sha256File(dbFile), bytes: fs.statSync(dbFile).size },
      images: names.length,
      counts,
    };
    fs.writeFileSync(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");

    const finalName = `unboxed-${stampOf(now)}.tar.gz`;
    const partial = path.join(staging, finalName);
    await tar.c({ gzip: true, cwd: staging, file: partial, portable: true }, ["manifest.json", path.basename(dbFile), "images"]);
    const fd = fs.openSync(partial, "r");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    const file = path.join(config.backup.dir, finalName);
    fs.renameSync(partial, file);

    const removed = fs
      .readdirSync(config.backup.dir)
      .filter((name) => FILE_PATTERN.test(name))
      .sort()
      .reverse()
      .slice(config.backup.keep);
    for (const name of removed) fs.rmSync(path.join(config.backup.dir, name), { force: true });
    return { file, bytes: fs.statSync(file).size, manifest, removed };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------
// Restore

export interface RestoreResult {
  manifest: Manifest;
  counts: Counts;
  images: number;
  /** what was moved aside because it was replaced (forced restore) */
  keptAside: string[];
  integrity: string;
}

const ALLOWED = /^(manifest\.json|shop\.db|db\.dump|images\/?|images\/[A-Za-z0-9._-]+)$/;

async function unpack(file: string, into: string): Promise<void> {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new BackupError(`There is no backup file at ${file}.`);
  const refused: string[] = [];
  try {
    await tar.x({
      file,
      cwd: into,
      strict: true,
      // Only the files a backup has; no links, no paths outside the folder.
      filter: (entryPath, entry) => {
        const name = entryPath.replace(/^\.\//, "");
        const type = "type" in entry ? entry.type : "File";
        const ok = ALLOWED.test(name) && (type === "File" || type === "Directory");
        if (!ok) refused.push(name);
        return ok;
      },
    });
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code === "TAR_BAD_ARCHIVE" || code === "Z_DATA_ERROR" || /invalid|unrecognized|incorrect header/i.test((error as Error).message)) {
      throw new BackupError(`${file} is not an Unboxed backup (it is not a gzipped tar file).`);
    }
    throw new BackupError(`${file} is damaged or incomplete (${(error as Error).message}). Nothing was restored.`);
  }
  if (refused.length) throw new BackupError(`${file} is not an Unboxed backup: it holds ${refused.slice(0, 3).join(", ")}. Nothing was restored.`);
}

function readManifest(dir: string, file: string): Manifest {
  const where = path.join(dir, "manifest.json");
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(where, "utf8")) as Partial<Manifest>;
  } catch {
    throw new BackupError(`${file} is not an Unboxed backup (it has no readable manifest.json). Nothing was restored.`);
  }
  if (manifest.app !== BACKUP_APP) throw new BackupError(`${file} is not an Unboxed backup (it is from another application). Nothing was restored.`);
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${file} was written by a newer version of the shop (format ${manifest.format}); update the shop first.`);
  if (!manifest.database || !manifest.counts || (manifest.engine !== "sqlite" && manifest.engine !== "postgres")) {
    throw new BackupError(`${file} has an incomplete manifest. Nothing was restored.`);
  }
  return manifest as Manifest;
}

/** Whether the target shop has anything worth keeping: accounts, products or orders, or pictures. */
async function targetHasData(config: BackupConfig): Promise<boolean> {
  if (listImages(imagesDir(config.dataDir)).length) return true;
  if (config.databaseUrl) {
    const counts = await countPostgres(config.databaseUrl);
    return counts !== null && Object.values(counts).some((n) => n > 0);
  }
  if (!fs.existsSync(config.sqlitePath)) return false;
  try {
    return Object.values(await countSqlite(config.sqlitePath)).some((n) => n > 0);
  } catch {
    // A file that is not a shop database is still somebody's data.
    return fs.statSync(config.sqlitePath).size > 0;
  }
}

/**
 * Puts a backup back. Refuses a shop that has data unless force is set; then the SQLite file it
 * replaces is kept beside it (shop.db.before-restore-...). Stop the shop first.
 */
export async function restoreBackup(config: BackupConfig, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const parent = path.dirname(config.dataDir);
  fs.mkdirSync(parent, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(parent, ".unboxed-restore-"));
  try {
    await unpack(file, scratch);
    const manifest = readManifest(scratch, file);
    const engine = config.databaseUrl ? "postgres" : "sqlite";
    if (manifest.engine !== engine) {
      throw new BackupError(
        manifest.engine === "sqlite"
          ? `${file} is a backup of a shop on SQLite, but DATABASE_URL points this shop at PostgreSQL. Unset DATABASE_URL to restore it.`
          : `${file} is a backup of a shop on PostgreSQL; set DATABASE_URL to an empty PostgreSQL database to restore it.`,
      );
    }
    const dbFile = path.join(scratch, manifest.database.file);
    if (manifest.database.file !== (engine === "sqlite" ? SQLITE_FILE : PG_FILE) || !fs.existsSync(dbFile)) {
      throw new BackupError(`${file} is missing its database. Nothing was restored.`);
    }
    if ((await sha256File(dbFile)) !== manifest.database.sha256) throw new BackupError(`${file} is damaged: its database does not match its checksum. Nothing was restored.`);
    const restoredImages = listImages(path.join(scratch, "images"));
    if (restoredImages.length !== manifest.images) throw new BackupError(`${file} is damaged: ${manifest.images} pictures expected, ${restoredImages.length} found. Nothing was restored.`);

    if (!options.force && (await targetHasData(config))) {
      throw new BackupError(
        `The shop at ${config.databaseUrl ? "DATABASE_URL" : config.dataDir} already has data. Restore into an empty data folder (or database), or run again with --force to replace it (what is replaced is kept beside it).`,
      );
    }

    const keptAside: string[] = [];
    let integrity: string;
    let counts: Counts;
    if (engine === "sqlite") {
      integrity = sqliteIntegrity(dbFile);
      if (integrity !== "ok") throw new BackupError(`The database in ${file} fails its integrity check (${integrity}). Nothing was restored.`);
      counts = await countSqlite(dbFile);
    } else {
      integrity = "ok";
      counts = manifest.counts;
    }

    // Pictures first: they are named by their content, so adding them next to others loses nothing.
    const images = imagesDir(config.dataDir);
    fs.mkdirSync(images, { recursive: true });
    for (const name of restoredImages) {
      const target = path.join(images, name);
      if (!fs.existsSync(target)) fs.copyFileSync(path.join(scratch, "images", name), target);
    }

    if (engine === "sqlite") {
      fs.mkdirSync(path.dirname(config.sqlitePath), { recursive: true });
      const stamp = stampOf(new Date());
      for (const suffix of ["", "-wal", "-shm"]) {
        const existing = config.sqlitePath + suffix;
        if (!fs.existsSync(existing)) continue;
        const aside = `${config.sqlitePath}.before-restore-${stamp}${suffix}`;
        fs.renameSync(existing, aside);
        keptAside.push(aside);
      }
      try {
        fs.renameSync(dbFile, config.sqlitePath);
      } catch {
        // Another file system: copy, then make sure it is on disk.
        fs.copyFileSync(dbFile, config.sqlitePath);
      }
      const fd = fs.openSync(config.sqlitePath, "r");
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      integrity = sqliteIntegrity(config.sqlitePath);
      counts = await countSqlite(config.sqlitePath);
    } else {
      const { url, env } = splitPassword(config.databaseUrl!);
      try {
        // One transaction: a dump that fails half-way leaves the database as it was.
        await run(postgresTool("pg_restore"), ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", "--dbname", url, dbFile], {
          env,
          maxBuffer: 16 * 1024 * 1024,
        });
      } catch (error) {
        throw new BackupError(`pg_restore failed, nothing was changed: ${((error as { stderr?: string }).stderr ?? (error as Error).message).trim()}`);
      }
      counts = (await countPostgres(config.databaseUrl!)) ?? { users: 0, products: 0, orders: 0, order_items: 0 };
    }
    for (const table of COUNTED) {
      if (counts[table] !== manifest.counts[table]) {
        throw new BackupError(`After the restore the shop has ${counts[table]} ${table}, but the backup had ${manifest.counts[table]}.`);
      }
    }
    return { manifest, counts, images: restoredImages.length, keptAside, integrity };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
