import type { AppLoadContext } from "react-router";
import routes from "~/routes";

interface RouteEntry {
  file: string;
  path?: string;
  children?: RouteEntry[];
}

function flatten(entries: RouteEntry[], base = ""): { file: string; path: string }[] {
  return entries.flatMap((entry) => {
    const full = entry.path ? `${base.replace(/\/$/, "")}/${entry.path}` : base || "/";
    return [{ file: entry.file, path: full }, ...flatten(entry.children ?? [], full)];
  });
}

/** Every route of app/routes.ts with its module's file and full path, so a test walks new routes unlisted. */
export function everyRoute(): { file: string; path: string }[] {
  return flatten(routes as RouteEntry[]);
}

export type Action = (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => Promise<unknown>;

/**
 * What a loader or action answers, as the server would send it: its status and the translated message
 * of a refusal. A thrown Error is a 500, as the server would answer it, never taken for a success.
 */
export async function outcome(action: Action, request: Request, context: AppLoadContext, params: Record<string, string> = {}) {
  let value: unknown;
  try {
    value = await action({ request, context, params });
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, message: null };
  const wrapped = value as { type?: string; data?: { message?: string; error?: { message?: string } }; init?: ResponseInit | null };
  if (wrapped?.type === "DataWithResponseInit") {
    return { status: wrapped.init?.status ?? 200, message: wrapped.data?.message ?? wrapped.data?.error?.message ?? null };
  }
  if (value instanceof Error) return { status: 500, message: value.message };
  return { status: 200, message: null };
}
