import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { keptBytes } from "./kept-bytes.server";

describe("bytes kept in the page cache", () => {
  it("holds only its own bytes, not the rest of zlib's output chunk or Node's shared pool", () => {
    const page = Buffer.from(`<html>${"perfume ".repeat(400)}</html>`);
    const compressed = zlib.deflateRawSync(page);
    // What zlib gives: a few hundred bytes of a much larger allocation.
    expect(compressed.buffer.byteLength).toBeGreaterThan(compressed.length * 4);
    const kept = keptBytes(compressed);
    expect(kept.equals(compressed)).toBe(true);
    expect(kept.buffer.byteLength).toBe(kept.length);
    expect(kept.byteOffset).toBe(0);

    const small = Buffer.from(' aria-pressed="true"', "latin1");
    expect(small.buffer.byteLength).toBeGreaterThan(small.length);
    expect(keptBytes(small).buffer.byteLength).toBe(small.length);
    expect(keptBytes(small).toString("latin1")).toBe(' aria-pressed="true"');
  });

  it("keeps a buffer that already owns its memory as it is", () => {
    const own = Buffer.allocUnsafeSlow(100).fill(7);
    expect(keptBytes(own)).toBe(own);
  });
});
