import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every runtime dependency is something the shop's code imports: an unused package is code we ship,
// install and keep patched for nothing.

/** Runtime dependencies used without an import in our code, and why. */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  tsx: "runs the TypeScript npm scripts (node --import tsx)",
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : sourceFiles(full);
    return /\.(ts|tsx|js|css)$/.test(entry.name) ? [full] : [];
  });
}

describe("dependencies", () => {
  it("lists no runtime package that nothing imports", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    const code = [...sourceFiles("app"), ...sourceFiles("scripts"), "server.ts"].map((file) => fs.readFileSync(file, "utf8")).join("\n");
    const unused = Object.keys(pkg.dependencies).filter((name) => {
      if (name in USED_WITHOUT_IMPORT) return false;
      const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      return !new RegExp(`(from |import\\(|@import )["']${escaped}(/[^"']*)?["']`).test(code);
    });
    expect(unused).toEqual([]);
  });

  it("changes no installed package: no patches, nothing run after install", () => {
    expect(fs.existsSync("patches")).toBe(false);
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.postinstall).toBeUndefined();
  });

  it("pins every package to an exact version", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const loose = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([, version]) => !/^\d+\.\d+\.\d+$/.test(version));
    expect(loose).toEqual([]);
  });

  it("declares every package the code, tests, scripts and configs import", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
    const files = [...sourceFiles("app"), ...sourceFiles("scripts"), ...sourceFiles("tests"), ...fs.readdirSync(".").filter((name) => /\.(ts|js)$/.test(name))];
    const undeclared = new Set<string>();
    for (const file of files) {
      const code = fs.readFileSync(file, "utf8");
      for (const [, specifier] of code.matchAll(/(?:\bfrom |\bimport\(|^import )["']([^"'.~/][^"']*)["']/gm)) {
        if (specifier.startsWith("node:") || specifier.startsWith("virtual:") || builtinModules.includes(specifier.split("/")[0])) continue;
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
        if (!declared.has(name)) undeclared.add(`${name} (${file})`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });
});
