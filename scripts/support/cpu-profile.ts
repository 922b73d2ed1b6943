import fs from "node:fs";
import path from "node:path";

/** Where a V8 CPU profile (node --cpu-prof) spent its self time, by package or module and by function. */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package or module a function belongs to: node_modules' package, Node's own module, the app's build, or V8's own. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : `native (${functionName || "anonymous"})`;
  const inPackage = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (inPackage) return inPackage[1];
  if (url.startsWith("node:internal/deps/undici")) return "node:undici (Request, Response, Headers)";
  if (url.startsWith("node:")) return url.replace(/^node:(internal\/)?/, "node:").split("/").slice(0, 2).join("/");
  if (url.includes("/build/server/")) return "app (build/server)";
  if (url.endsWith("/build/server.js")) return "server (build/server.js)";
  return path.basename(url);
}

/** Microseconds of the monotonic clock V8's profiles are timed by (process.hrtime's, on Linux). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The profile's self time by module and by function, of the samples within `window` (monotonic µs) when given. */
export function summariseProfile(file: string, window?: { fromUs: number; toUs: number }, top = 25) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByNode = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, { module: string; us: number }>();
  let busyUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfByNode) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === "(idle)") {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const module = moduleOf(url, functionName);
    byModule.set(module, (byModule.get(module) ?? 0) + us);
    const key = `${functionName || "(anonymous)"} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ""}`.trim();
    const entry = byFunction.get(key) ?? { module, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
  }
  const share = (us: number) => `${((100 * us) / busyUs).toFixed(1)} %`;
  const ms = (us: number) => Math.round(us / 1000);
  return {
    busyMs: ms(busyUs),
    idleMs: ms(idleUs),
    modules: [...byModule]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([module, us]) => ({ module, "self ms": ms(us), share: share(us) })),
    functions: [...byFunction]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([fn, { module, us }]) => ({ function: fn.slice(0, 70), module, "self ms": ms(us), share: share(us) })),
  };
}
