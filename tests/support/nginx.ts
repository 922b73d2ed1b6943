import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The distribution's nginx, run with the shipped deploy/nginx.conf in front of app instances: a child
 * process (not a daemon) with its own prefix, paths, pid and logs in a scratch folder, on 127.0.0.1.
 *
 * The shipped file is used as it is, except its machine-specific blocks (between "# BEGIN <name>" and
 * "# END <name>"), which are replaced here: the process's user, pid and error log, the log and cache
 * paths, the app instances, the listening address (plain HTTP, no certificate), and the HTTP to HTTPS
 * redirect (dropped).
 */

export const NGINX_CONF = path.resolve("deploy/nginx.conf");
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export interface RunningNginx {
  base: string;
  pid: number;
  process: ChildProcess;
  /** the scratch folder: nginx.conf, logs, cache */
  dir: string;
  /** the access log's lines so far (format "unboxed" of deploy/nginx.conf) */
  accessLog(): string[];
  /** everything nginx wrote to its error log and its standard streams */
  errors(): string;
  stop(): Promise<void>;
}

/** The nginx binary, or one clear line saying how to install it. */
export function nginxBinary(): string {
  if (!fs.existsSync(NGINX)) throw new Error(`nginx is not installed (${NGINX} is missing): run apt-get install -y nginx`);
  return NGINX;
}

/** Replaces the one block `# BEGIN name` ... `# END name` of a config by `lines` (kept at its indentation). */
export function replaceBlock(config: string, name: string, lines: string[]): string {
  const block = new RegExp(`^([ \\t]*)# BEGIN ${name}\\n[\\s\\S]*?^[ \\t]*# END ${name}\\n`, "gm");
  const found = config.match(block) ?? [];
  if (found.length !== 1) throw new Error(`${NGINX_CONF} must have exactly one "# BEGIN ${name}" ... "# END ${name}" block (found ${found.length})`);
  return config.replace(block, (_whole, indent: string) => lines.map((line) => `${indent}${line}\n`).join(""));
}

/** deploy/nginx.conf made to run in `dir` on 127.0.0.1:`port` in front of `instances` ("127.0.0.1:3000"). */
export function testConfig(shipped: string, options: { dir: string; port: number; instances: string[] }): string {
  const { dir, port, instances } = options;
  const at = (name: string) => path.join(dir, name);
  let config = replaceBlock(shipped, "process", [
    // As root, the workers need it to use the scratch folder (the default user, nobody, cannot).
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    `pid ${at("nginx.pid")};`,
    `error_log ${at("error.log")} warn;`,
  ]);
  config = replaceBlock(config, "paths", [
    `access_log ${at("access.log")} unboxed;`,
    `proxy_cache_path ${at("cache")} levels=1:2 keys_zone=unboxed:10m max_size=100m inactive=1h use_temp_path=off;`,
    `client_body_temp_path ${at("client_body")};`,
    `proxy_temp_path ${at("proxy")};`,
    `fastcgi_temp_path ${at("fastcgi")};`,
    `uwsgi_temp_path ${at("uwsgi")};`,
    `scgi_temp_path ${at("scgi")};`,
  ]);
  config = replaceBlock(config, "instances", instances.map((address) => `server ${address} max_fails=3 fail_timeout=10s;`));
  config = replaceBlock(config, "https-redirect", []);
  config = replaceBlock(config, "listen", [`listen 127.0.0.1:${port};`, "server_name 127.0.0.1;"]);
  return config;
}

export async function startNginx(options: { port: number; instances: string[] }): Promise<RunningNginx> {
  const binary = nginxBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-nginx-"));
  const configPath = path.join(dir, "nginx.conf");
  fs.writeFileSync(configPath, testConfig(fs.readFileSync(NGINX_CONF, "utf8"), { dir, ...options }));
  const base = `http://127.0.0.1:${options.port}`;
  const child = spawn(binary, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", configPath, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const read = (name: string) => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), "utf8") : "");
  const errors = () => `${output}${read("error.log")}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // QUIT: finish the answers in flight, then exit (the workers with the master).
      child.kill("SIGQUIT");
      const late = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(late);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (tries > 300 || child.exitCode !== null) {
      const said = errors();
      await stop();
      throw new Error(`nginx did not start with ${configPath}:\n${said}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid!,
    process: child,
    dir,
    accessLog: () => read("access.log").split("\n").filter(Boolean),
    errors,
    stop,
  };
}
