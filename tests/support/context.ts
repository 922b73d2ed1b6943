import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { loadConfig } from "~/platform/config.server";
import type { TestDatabase } from "./databases";

/** The load context a loader or action gets in the running server, over a test database. */
export function testContext(database: TestDatabase, env: Record<string, string> = {}): AppLoadContext {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-ctx-"));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: "http://shop.test", NODE_ENV: "test", ...env });
  return { db: database.db, engine: database.engine, config, clientIp: "127.0.0.1" };
}

/** A request as the browser would send it, with cookies taken from Set-Cookie values. */
export function browserRequest(url: string, init: { cookies?: string[]; method?: string; body?: BodyInit; headers?: Record<string, string> } = {}): Request {
  const headers = new Headers(init.headers);
  const cookie = (init.cookies ?? []).map((c) => c.split(";")[0]).join("; ");
  if (cookie) headers.set("Cookie", cookie);
  return new Request(new URL(url, "http://shop.test"), { method: init.method ?? "GET", body: init.body, headers });
}

export interface RouteOutcome {
  status: number;
  location: string | null;
  headers: Headers;
  body: unknown;
}

/** Runs a route's loader or action the way the server does and reports what came back, thrown or returned. */
export async function runRoute(handler: (args: never) => Promise<unknown>, request: Request, context: AppLoadContext, params: Record<string, string> = {}): Promise<RouteOutcome> {
  let value: unknown;
  try {
    value = await handler({ request, context, params } as never);
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, location: value.headers.get("Location"), headers: value.headers, body: null };
  const wrapped = value as { type?: string; data?: unknown; init?: ResponseInit | null };
  if (wrapped?.type === "DataWithResponseInit") {
    const headers = new Headers(wrapped.init?.headers);
    return { status: wrapped.init?.status ?? 200, location: headers.get("Location"), headers, body: wrapped.data };
  }
  return { status: 200, location: null, headers: new Headers(), body: value };
}
