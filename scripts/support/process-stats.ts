import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** A process's CPU time and memory as Linux's /proc counts them, for the bench. */

/** Clock ticks a second, the unit of /proc's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();

const ticksToMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS;

/** A process's (or one of its threads') /proc stat fields after its name: state, ppid, ... (utime and stime are 11 and 12). */
function statFields(pid: number, thread?: number): string[] {
  const stat = fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
}

/**
 * The process's CPU time so far, user and system, in ms: all its threads, or its main thread alone (the
 * one JavaScript and SQLite run on; compression runs on libuv's pool threads); null where there is no /proc.
 */
export function cpuMs(pid: number, mainThread = false): number | null {
  try {
    const fields = statFields(pid, mainThread ? pid : undefined);
    return ticksToMs(Number(fields[11]) + Number(fields[12]));
  } catch {
    return null;
  }
}

/** The process's resident memory now (VmRSS) and at its highest since it started (VmHWM), in MB. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const mb = (field: string) => Math.round(Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024);
    return { rss: mb("VmRSS"), peak: mb("VmHWM") };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** PostgreSQL's postmaster when the backend `backendPid` runs on this machine, else null. */
export function localPostmaster(backendPid: number): number | null {
  try {
    const postmaster = Number(statFields(backendPid)[1]);
    const isPostgres = (pid: number) => fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
    return isPostgres(backendPid) && isPostgres(postmaster) ? postmaster : null;
  } catch {
    return null;
  }
}

/** PostgreSQL's CPU time so far, in ms: its postmaster's own and its ended processes', and every live process's it started. */
export function postgresCpuMs(postmaster: number | null): number | null {
  if (postmaster === null) return null;
  try {
    const own = statFields(postmaster);
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = statFields(Number(entry));
        if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // The process ended between listing and reading: its time is now its parent's.
      }
    }
    return ticksToMs(ticks);
  } catch {
    return null;
  }
}

/**
 * The process's CPU time so far, in ms, on its main thread (JavaScript, queries) and on its other threads
 * (libuv's pool: compression; V8's helpers: garbage collection, compiling). Node names no thread, so
 * they cannot be told apart further.
 */
export function cpuMsByThread(pid: number): Record<string, number> {
  const all = cpuMs(pid);
  const main = cpuMs(pid, true);
  if (all === null || main === null) return {};
  return { "main thread (JavaScript, queries)": main, "other threads (zlib, GC, JIT)": all - main };
}
