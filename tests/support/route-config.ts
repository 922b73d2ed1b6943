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
