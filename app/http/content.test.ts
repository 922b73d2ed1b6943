import { describe, expect, it } from "vitest";
import { contentFor, fill } from "./content.server";

/** Every path to a text, with arrays by index, so both languages can be compared key by key. */
function paths(value: unknown, prefix = ""): string[] {
  if (typeof value === "string") return [prefix];
  if (Array.isArray(value)) return value.flatMap((v, i) => paths(v, `${prefix}[${i}]`));
  return Object.entries(value as object).flatMap(([k, v]) => paths(v, prefix ? `${prefix}.${k}` : k));
}

function at(value: unknown, path: string): unknown {
  return path.split(/\.|\[|\]\.?/).filter(Boolean).reduce((node: any, key) => node?.[key], value); // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe("page copy", () => {
  it("has the same texts in English and Spanish, none empty", () => {
    const en = contentFor("en");
    const es = contentFor("es");
    expect(paths(es)).toEqual(paths(en));
    for (const path of paths(en)) {
      expect((at(en, path) as string).trim(), `en ${path}`).not.toBe("");
      expect((at(es, path) as string).trim(), `es ${path}`).not.toBe("");
    }
  });

  it("has the spec's pages: seven policy sections, at least eight questions, two hero slides, three promises", () => {
    for (const locale of ["en", "es"] as const) {
      const c = contentFor(locale);
      expect(c.returns.sections).toHaveLength(7);
      expect(c.faq.items.length).toBeGreaterThanOrEqual(8);
      expect(c.home.hero).toHaveLength(2);
      expect(c.home.promises).toHaveLength(3);
    }
    expect(contentFor("en").home.hero.map((s) => s.title)).toEqual(["Luxury Scents Within Reach", "Smell Expensive, Shop Smart"]);
    expect(contentFor("en").home.promises.map((p) => p.title)).toEqual(["DOOR STEP DELIVERY", "24 x 7 SERVICE", "ONLINE SUPPORT"]);
  });

  it("fills placeholders and leaves unknown ones", () => {
    expect(fill("Call {{phone}} or {{ other }}", { phone: "+234" })).toBe("Call +234 or {{ other }}");
  });
});
