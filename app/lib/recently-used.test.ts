import { describe, expect, it } from "vitest";
import { RecentlyUsed } from "./recently-used";

describe("a map of the most recently used entries", () => {
  it("lets the least recently used entry go first, reading counting as a use", () => {
    const kept = new RecentlyUsed<string, number | null>(2);
    kept.set("a", 1);
    kept.set("b", null);
    expect(kept.get("a")).toBe(1);
    kept.set("c", 3);
    // "b" was used least recently: it went, "a" (just read) stayed.
    expect(kept.has("b")).toBe(false);
    expect([kept.get("a"), kept.get("c"), kept.size]).toEqual([1, 3, 2]);
    // A kept null is an entry, not a miss.
    kept.set("b", null);
    expect([kept.has("b"), kept.get("b"), kept.has("a")]).toEqual([true, null, false]);
    // Writing a kept key again replaces it without letting another go.
    kept.set("b", 2);
    expect([kept.get("b"), kept.get("c"), kept.size]).toEqual([2, 3, 2]);
    kept.clear();
    expect(kept.size).toBe(0);
  });
});
