import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { pageBytes, SplicedGzip, sharedPiece } from "./spliced-gzip.server";

/** An anonymous page like a listing: a header with a few places, cards with hearts, a data script. */
function anonymousParts(): Buffer[] {
  const parts: string[] = [];
  let fixed = "";
  const place = (bytes: string) => {
    parts.push(fixed, bytes);
    fixed = "";
  };
  fixed += `<!DOCTYPE html><html lang="en"><head><title>Shop</title>${'<link rel="stylesheet" href="/assets/app.css"/>'.repeat(20)}</head><body><header><a href="/auth"`;
  place(' hidden=""');
  fixed += '>Sign in</a><span class="badge">';
  place("0");
  fixed += '</span><span class="total">';
  place("₦0");
  fixed += "</span></header><ul>";
  for (let n = 1; n <= 24; n++) {
    fixed += `<li class="card"><a href="/shop/${n}"><img src="/images/${n}-400.webp" alt="Perfume ${n}" width="400" height="400"/><h3>Perfume number ${n}</h3></a><span class="price">₦${(n * 1375).toLocaleString("en")}</span><form method="post" action="/wishlist"><input type="hidden" name="productId" value="${n}"/>`;
    place('<button aria-pressed="false"><svg fill="none"');
    fixed += "</svg></button></form></li>";
  }
  fixed += "</ul><script>window.__data=";
  place('"{\\"user\\":null}"');
  fixed += `</script>${'<script src="/assets/chunk.js"></script>'.repeat(10)}</body></html>`;
  parts.push(fixed);
  return parts.map((part) => Buffer.from(part));
}

const gunzip = (bytes: Buffer | null) => zlib.gunzipSync(bytes!).toString();

/** A page's splicer past its first shopper, whose page is compressed whole. */
function spliceable(anonymous: Buffer[]): SplicedGzip {
  const spliced = new SplicedGzip(anonymous);
  expect(spliced.encode(anonymous)).toBeNull();
  return spliced;
}

describe("gzip spliced from a page's parts", () => {
  it("gives, for any shopper's places, a gzip member that decodes to exactly their page", () => {
    const anonymous = anonymousParts();
    expect(anonymous.length % 2).toBe(1);
    const spliced = spliceable(anonymous);
    const shoppers: Buffer[][] = [
      anonymous,
      // a cart: badge and total
      anonymous.map((part, i) => (i === 3 ? Buffer.from("2") : i === 5 ? Buffer.from("₦45,000") : part)),
      // signed in, a heart pressed in the middle, their data
      anonymous.map((part, i) =>
        i === 1 ? Buffer.from("") : i === 21 ? Buffer.from('<button aria-pressed="true"><svg fill="currentColor"') : i === anonymous.length - 2 ? Buffer.from('"{\\"user\\":{\\"firstName\\":\\"Adaeze\\"}}"') : part,
      ),
      // every place changed
      anonymous.map((part, i) => (i % 2 === 1 ? Buffer.from(`<i>${i}</i>`) : part)),
    ];
    for (const parts of shoppers) {
      const gzip = spliced.encode(parts)!;
      // gunzipSync checks the CRC-32 and the length in the trailer.
      expect(gunzip(gzip)).toBe(Buffer.concat(parts).toString());
      expect(gzip.length).toBeLessThan(Buffer.concat(parts).length / 3);
      // Chromium and curl read it as any gzip answer: one member, nothing after it.
      expect(gzip.subarray(0, 3)).toEqual(Buffer.from([0x1f, 0x8b, 8]));
      expect(zlib.inflateRawSync(gzip.subarray(10, -8)).length).toBe(Buffer.concat(parts).length);
    }
  });

  it("compresses the runs as on the anonymous page once, and per request only the shopper's parts", () => {
    const anonymous = anonymousParts();
    const spliced = spliceable(anonymous);
    const grown: number[] = [];
    const cart = (count: string) => anonymous.map((part, i) => (i === 3 ? Buffer.from(count) : part));
    const first = spliced.encode(cart("1"), (bytes) => grown.push(bytes))!;
    // The page after the badge is one run, kept; the short head before it is compressed with the badge.
    expect(grown).toHaveLength(1);
    const kept = grown.reduce((a, b) => a + b, 0);
    const second = spliced.encode(cart("7"), (bytes) => grown.push(bytes))!;
    expect(grown.reduce((a, b) => a + b, 0)).toBe(kept);
    // The page cache counts what a kept run adds: the run holds that much memory, not zlib's 16 KB chunk.
    const runs = [...(spliced as unknown as { kept: Map<string, { block: Buffer }> }).kept.values()];
    expect(runs.map((run) => run.block.buffer.byteLength)).toEqual([kept]);
    expect(gunzip(second)).toBe(Buffer.concat(cart("7")).toString());
    // The run after the badge is the same bytes in both answers.
    const tail = first.subarray(-(kept + 10), -10);
    expect(second.subarray(-(kept + 10), -10).equals(tail)).toBe(true);
    // Close to compressing the whole page at once.
    const whole = zlib.gzipSync(Buffer.concat(cart("7")), { level: 6 }).length;
    expect(second.length).toBeLessThan(whole * 1.25);
  });

  it("keeps runs holding a place's known alternative, one per way the alternatives are set", () => {
    const anonymous = anonymousParts();
    const pressed = '<button aria-pressed="true"><svg fill="currentColor"';
    const alternatives: (Buffer | undefined)[] = [];
    alternatives[21] = Buffer.from(pressed);
    const spliced = new SplicedGzip(anonymous, alternatives);
    expect(spliced.encode(anonymous)).toBeNull();
    const grown: number[] = [];
    const withAlternative = () => anonymous.map((part, i) => (i === 21 ? Buffer.from(pressed) : part));
    // The whole page is known: one run, kept, and the next shopper like it is answered from it.
    for (const parts of [withAlternative(), withAlternative()]) {
      expect(gunzip(spliced.encode(parts, (bytes) => grown.push(bytes)))).toBe(Buffer.concat(parts).toString());
    }
    expect(grown).toHaveLength(1);
    // As on the anonymous page is another way: its own run.
    expect(gunzip(spliced.encode(anonymous, (bytes) => grown.push(bytes)))).toBe(Buffer.concat(anonymous).toString());
    expect(grown).toHaveLength(2);
    // Bytes that are neither are the shopper's own, and cut the page there.
    const own = anonymous.map((part, i) => (i === 21 ? Buffer.from('<button aria-pressed="mixed"><svg') : part));
    expect(gunzip(spliced.encode(own, (bytes) => grown.push(bytes)))).toBe(Buffer.concat(own).toString());
    expect(grown.length).toBeGreaterThan(2);
  });

  it("keeps a bounded number of runs per page, and still answers correctly past the bound", () => {
    const anonymous = anonymousParts();
    const spliced = spliceable(anonymous);
    let kept = 0;
    // Every shopper with a different heart pressed cuts the listing in a different place.
    for (let heart = 9; heart < anonymous.length - 3; heart += 2) {
      const parts = anonymous.map((part, i) => (i === heart ? Buffer.from("<button><svg") : part));
      expect(gunzip(spliced.encode(parts, () => kept++))).toBe(Buffer.concat(parts).toString());
    }
    expect(kept).toBe(16);
  });

  it("tells what share of a page is the shopper's own: places as on the anonymous page or their alternative are not", () => {
    const anonymous = anonymousParts();
    const page = (parts: Buffer[]) => parts.reduce((sum, part) => sum + part.length, 0);
    const alternative = Buffer.from("");
    const spliced = new SplicedGzip(anonymous, anonymous.map((_, i) => (i === 1 ? alternative : undefined)));
    expect(spliced.shares(anonymous)).toEqual({ own: 0, compressed: 0 });
    // Signed in (the toggle switched as for everyone signed in), with a name of their own.
    const signedIn = anonymous.map((part, i) => (i === 1 ? alternative : i === 3 ? Buffer.from("2") : part));
    expect(spliced.shares(signedIn).own).toBeCloseTo(1 / page(signedIn));
    expect(spliced.shares(signedIn).compressed).toBeCloseTo(1 / page(signedIn));
    // A long part of their own, as a recently viewed row is, is most of the page.
    const row = Buffer.from("<li>card</li>".repeat(2_000));
    const withRow = anonymous.map((part, i) => (i === 5 ? row : part));
    expect(spliced.shares(withRow).own).toBeCloseTo(row.length / page(withRow));
    expect(spliced.shares(withRow).own).toBeGreaterThan(0.25);
  });

  it("splices a place made of shared pieces, each compressed once for the piece before it, in any order", () => {
    const anonymous = anonymousParts();
    const spliced = spliceable(anonymous);
    // Like a recently viewed row's cards: alike, each with bytes of its own.
    const card = (n: number) => sharedPiece(Buffer.from(`<li class="card"><a href="/shop/${n}">Perfume ${n} ${"é".repeat(n % 7)}</a><img src="/images/${(n * 7919).toString(16)}.webp"/></li>`));
    const cards = Array.from({ length: 12 }, (_, n) => card(n + 1));
    const own = (text: string) => Buffer.from(text);
    const rows: Buffer[][] = [
      cards.slice(0, 8),
      // Moved by one card, as browsing moves a row: the same pairs but one.
      [cards[8], ...cards.slice(0, 7)],
      // The same card after other cards, after itself, and after bytes of the shopper's own.
      [cards[3], cards[1], cards[3], cards[3], own("<li>mine</li>"), cards[1], cards[2]],
      [own(""), cards[11], own("x".repeat(3_000)), cards[10], cards[11]],
      // Long pieces: the page's CRC is made from theirs, over every bit of their lengths.
      [cards[0], sharedPiece(Buffer.from(Array.from({ length: 70_001 }, (_, n) => String.fromCharCode(32 + ((n * 31) % 95))).join(""))), cards[1]],
      [],
    ];
    for (const row of rows) {
      // The row in the listing's first card place; the shopper's data at the end.
      const parts = anonymous.map((part, i): Buffer | Buffer[] => (i === 7 ? row : i === anonymous.length - 2 ? Buffer.from('"{\\"user\\":1}"') : part));
      expect(gunzip(spliced.encode(parts))).toBe(pageBytes(parts).toString());
    }
    // Shared pieces are the shopper's own, but not compressed for each page.
    const rowBytes = cards.slice(0, 8).reduce((sum, card) => sum + card.length, 0);
    const withRow = anonymous.map((part, i): Buffer | Buffer[] => (i === 7 ? cards.slice(0, 8) : part));
    expect(spliced.shares(withRow)).toEqual({ own: rowBytes / pageBytes(withRow).length, compressed: 0 });
    const withOwnRow = anonymous.map((part, i): Buffer | Buffer[] => (i === 7 ? cards.slice(0, 8).map((card) => Buffer.from(card)) : part));
    expect(spliced.shares(withOwnRow).compressed).toBeCloseTo(rowBytes / pageBytes(withOwnRow).length);
  });

  it("compresses a shared piece right after a kept run once, with only that run's bytes before it", () => {
    // A signed-in product page: the shopper's name, the page's kept body, then their row.
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `<p class="note">Note ${i} of the perfume's body</p>`).join("");
    const anonymous = [filler(20), "", filler(100), "", filler(100)].map((part) => Buffer.from(part));
    const spliced = spliceable(anonymous);
    // The row's head repeats what the first shopper's own bytes hold: were those in its dictionary, the
    // head compressed for the first would refer back into them, and read wrong in the next one's page.
    const head = sharedPiece(Buffer.from(`<section><h2>Recently viewed</h2>${"Adaeze Okafor ".repeat(40)}<ul>`));
    const card = sharedPiece(Buffer.from('<li class="card"><a href="/shop/7">Perfume 7</a></li>'));
    const page = (name: string) => [anonymous[0], Buffer.from(name.repeat(40)), anonymous[2], [head, card], anonymous[4]];
    const pages = [page("Adaeze Okafor "), page("Bola Ade "), page("Adaeze Okafor ")];
    const answers = pages.map((parts) => spliced.encode(parts)!);
    answers.forEach((gzip, i) => expect(gunzip(gzip)).toBe(pageBytes(pages[i]).toString()));
    // The same page twice is the same bytes: the head's pair was kept, not compressed again.
    expect(answers[2].equals(answers[0])).toBe(true);
    expect(answers[0].length).toBeLessThan(pageBytes(pages[0]).length / 5);
  });

  it("refuses parts that are not of its page", () => {
    const spliced = new SplicedGzip(anonymousParts());
    expect(() => spliced.encode([Buffer.from("x")])).toThrow(/number of parts/);
  });
});
