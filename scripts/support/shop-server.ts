import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The built production server (build/server.js), started for a script on a scratch data folder. */
export interface RunningShop {
  base: string;
  pid: number;
  process: ChildProcess;
  /** everything the server printed */
  log(): string;
  stop(): Promise<void>;
}

export async function startShop(options: { port: number; dataDir: string; databaseUrl?: string | null; env?: Record<string, string>; nodeArgs?: string[] }): Promise<RunningShop> {
  if (!fs.existsSync(path.resolve("build/server.js"))) throw new Error('No production build: run "npm run build" first.');
  const base = `http://127.0.0.1:${options.port}`;
  const server = spawn(process.execPath, [...(options.nodeArgs ?? []), "build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(options.port),
      HOST: "127.0.0.1",
      DATA_DIR: options.dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: "warn",
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : { DATABASE_URL: "" }),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > 4_000_000) output = output.slice(-2_000_000);
  };
  server.stdout!.on("data", keep);
  server.stderr!.on("data", keep);
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  };
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (tries > 600 || server.exitCode !== null) {
      await stop();
      throw new Error(`The server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, pid: server.pid!, process: server, log: () => output, stop };
}

/** The process's resident memory now (VmRSS) and at its highest so far (VmHWM), in MB (Linux). */
export function residentMemory(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Math.round(Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024);
  return { rssMb: mb("VmRSS"), peakMb: mb("VmHWM") };
}

/** The `npm run serve` script, from the project's package.json. */
const serveScript = () => (JSON.parse(fs.readFileSync(path.resolve("package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.serve;

/** A start command's parts: `NAME=value ... node <node flags> <script>`. */
export function commandParts(command: string): { env: Record<string, string>; nodeArgs: string[] } {
  const words = command.trim().split(/\s+/);
  const node = words.indexOf("node");
  if (node < 0) throw new Error(`No "node" in the start command: ${command}`);
  const env = Object.fromEntries(words.slice(0, node).flatMap((word) => (/^[A-Z_]+=/.test(word) ? [[word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]] : [])));
  const nodeArgs = words.slice(node + 1).filter((word) => word.startsWith("-"));
  return { env, nodeArgs };
}

/** Node's own flags `npm run serve` gives the server (its heap cap). */
export function serveNodeArgs(): string[] {
  return commandParts(serveScript()).nodeArgs;
}

/** The environment `npm run serve` sets before `node`, so the server runs as it is served. */
export function serveEnvironment(): Record<string, string> {
  return commandParts(serveScript()).env;
}
