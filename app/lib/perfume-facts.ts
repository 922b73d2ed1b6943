/**
 * Perfume facts the shop filters on (docs/decisions/132). Shared by the browser and the server: the
 * values are stored as these codes; their names are translated (store.facts.*).
 */

/** From the strongest to the lightest. */
export const CONCENTRATIONS = ["parfum", "edp", "edt", "edc"] as const;
export type Concentration = (typeof CONCENTRATIONS)[number];

/** The main scent family; "amber" is the family once called oriental. */
export const FAMILIES = ["woody", "floral", "amber", "fresh", "citrus", "gourmand", "aromatic", "chypre", "leather", "musky", "fruity"] as const;
export type Family = (typeof FAMILIES)[number];

export const isConcentration = (value: unknown): value is Concentration => CONCENTRATIONS.includes(value as Concentration);
export const isFamily = (value: unknown): value is Family => FAMILIES.includes(value as Family);

/** Known values only, each once, in the list's own order (so one choice has one URL). */
export function knownValues<T extends string>(values: readonly unknown[], known: readonly T[]): T[] {
  return known.filter((value) => values.includes(value));
}
