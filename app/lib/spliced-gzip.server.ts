import zlib from "node:zlib";
import { keptBytes } from "./kept-bytes.server";

/**
 * Gzip for a shopper's filled-in page without compressing the whole page per request
 * (docs/decisions/175). The page is the cached anonymous page's parts, alternately fixed pieces and
 * places; for most shoppers only a few places differ (the cart badge and total, a name, the data
 * script). Each run of parts that are as on the anonymous page is compressed once and kept: raw
 * deflate from a fresh compressor, ending in a sync flush, so it refers to nothing before it and
 * ends on a byte boundary. Per request only the differing places and the short runs between them are
 * compressed, referring back into the page before them. The runs and those bytes are then one gzip
 * member: its header, the blocks in order, an empty final block, and the CRC-32 and length of the
 * whole page. Runs are made from a page's second shopper on: most pages a shopper opens (a product
 * among thousands) are filled in once before they leave the cache, and for one answer compressing
 * the whole page once is cheaper than making its runs.
 */

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty fixed-Huffman block with its final bit set: the stream's end. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/**
 * Shorter runs are compressed with the shopper's parts around them, where they can refer back into the
 * page: a run compressed alone refers to nothing before it (the header's 2 KB between a signed-in
 * shopper's name and their cart gives 757 bytes alone, about half that in a compressor with what
 * precedes it). Longer ones are kept: compressing them per request costs a compressor (about 35 µs of
 * a page's 0.5 ms), which that 2 KB run was worth keeping for (a signed-in listing, 632 → 528 µs of
 * CPU, 280 bytes more).
 */
const MIN_KEPT_RUN = 2048;
/** Runs kept per page: shoppers with different hearts pressed cut a listing in different places. */
const MAX_KEPT_RUNS = 16;
/** zlib's default: level 9 took a fifth longer (0.37 against 0.31 ms for 43 KB of listing) for 0.3 % fewer bytes. */
const KEPT_RUN_LEVEL = 6;

/**
 * Fewer bytes of a shopper's own are sent as they are: setting up a compressor for them (its JavaScript
 * stream, clearing its window, building its Huffman trees) took about 35 µs of a page's 0.5 ms, and
 * compressing them saves a few hundred bytes.
 */
const STORED_BELOW = 1024;
/**
 * How much of the page before a shopper's parts their compression may refer back to: they are mostly
 * markup like the page's own (a recently viewed row is product cards); more costs time for little.
 */
const DICTIONARY_BYTES = 16 * 1024;

/** Raw deflate blocks ending on a byte boundary; `dictionary`: the bytes just before them in the stream. */
function deflateBlocks(bytes: Buffer, level: number, dictionary?: Buffer): Buffer {
  // A window no larger than what it can refer to: zlib clears it for every compressor it sets up.
  const reach = bytes.length + (dictionary?.length ?? 0) + MIN_LOOKAHEAD;
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(reach))));
  return zlib.deflateRawSync(bytes, { level, windowBits, finishFlush: zlib.constants.Z_SYNC_FLUSH, ...(dictionary ? { dictionary } : {}) });
}

/** What zlib keeps free at a window's end (MIN_LOOKAHEAD in deflate.h). */
const MIN_LOOKAHEAD = 262;

/** Bytes as they are, in a block of their own (byte-aligned, as every block here ends). */
function storedBlock(bytes: Buffer): Buffer {
  const block = Buffer.alloc(5 + bytes.length);
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

/** The last `max` bytes of the parts before `end`, or undefined when there are none. */
function bytesBefore(parts: readonly Buffer[], end: number, max: number): Buffer | undefined {
  const tail: Buffer[] = [];
  let bytes = 0;
  for (let i = end - 1; i >= 0 && bytes < max; i--) {
    const take = Math.min(parts[i].length, max - bytes);
    tail.unshift(parts[i].subarray(parts[i].length - take));
    bytes += take;
  }
  return bytes ? Buffer.concat(tail) : undefined;
}

export class SplicedGzip {
  private readonly kept = new Map<string, Buffer>();
  private filledIn = 0;

  /**
   * `anonymous`: the anonymous page's parts, alternately fixed pieces and places (an odd count).
   * `alternatives`: for a place, the other bytes it can hold that are the same for many shoppers (a
   * toggle switched for everyone signed in); runs with them are kept too, one per way they are set.
   */
  constructor(
    private readonly anonymous: readonly Buffer[],
    private readonly alternatives: readonly (Buffer | undefined)[] = [],
  ) {}

  /**
   * The page made of `parts` (the same count, each fixed piece the anonymous one) as one gzip member,
   * or null for the page's first shopper (compress it whole). `grew` is told of the bytes each newly
   * kept run adds, for the page cache's bound.
   */
  encode(parts: readonly Buffer[], grew?: (bytes: number) => void): Buffer | null {
    if (parts.length !== this.anonymous.length) throw new Error("A filled-in page has a different number of parts than its template.");
    if (this.filledIn++ === 0) return null;
    // Runs of parts known to the page (as on the anonymous page, or an alternative), and between them
    // what is the shopper's own; a run's key says where it is and which alternatives it holds.
    const segments: { start: number; end: number; key: string | null }[] = [];
    const add = (start: number, end: number, key: string | null) => {
      const last = segments[segments.length - 1];
      if (key === null && last && last.key === null) last.end = end;
      else segments.push({ start, end, key });
    };
    for (let i = 0; i < parts.length; ) {
      if (this.known(i, parts[i]) === null) {
        add(i, i + 1, null);
        i++;
        continue;
      }
      let end = i;
      let bytes = 0;
      let switched = "";
      for (let known = this.known(end, parts[end]); known !== null; known = this.known(end, parts[end])) {
        if (known) switched += `,${end}`;
        bytes += parts[end++].length;
      }
      // The page's last run is kept however short: nothing of the shopper's follows it to share a compressor.
      add(i, end, bytes >= MIN_KEPT_RUN || end === parts.length ? `${i}-${end}${switched}` : null);
      i = end;
    }
    const out: Buffer[] = [GZIP_HEADER];
    for (const { start, end, key } of segments) {
      if (key !== null) out.push(this.run(key, parts.slice(start, end), grew));
      else {
        const bytes = Buffer.concat(parts.slice(start, end));
        // What precedes these bytes on the page is known now: they may refer back into it, as far back
        // as they are long (zlib hashes all of a dictionary: a long one for a few bytes costs more than it saves).
        if (bytes.length >= STORED_BELOW) out.push(deflateBlocks(bytes, 1, bytesBefore(parts, start, Math.min(bytes.length, DICTIONARY_BYTES))));
        else if (bytes.length) out.push(storedBlock(bytes));
      }
    }
    let crc = 0;
    let size = 0;
    for (const part of parts) {
      // zlib's crc32 of an empty buffer without memory behind it is 0, not the value passed in.
      if (part.length === 0) continue;
      crc = zlib.crc32(part, crc);
      size += part.length;
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size >>> 0, 4);
    out.push(FINAL_EMPTY_BLOCK, trailer);
    return Buffer.concat(out);
  }

  /** The share of the page made of `parts` that is the shopper's own: its bytes not known to the page (0 to 1). */
  ownShare(parts: readonly Buffer[]): number {
    let own = 0;
    let all = 0;
    parts.forEach((part, i) => {
      all += part.length;
      if (this.known(i, part) === null) own += part.length;
    });
    return all === 0 ? 0 : own / all;
  }

  /**
   * Whether part i is known to the page: false as on the anonymous page, true as its alternative, null
   * the shopper's own. Fixed pieces are the template's own buffers; a place is compared by its bytes.
   */
  private known(i: number, part: Buffer | undefined): boolean | null {
    if (part === undefined) return null;
    const anonymous = this.anonymous[i];
    if (part === anonymous || (i % 2 === 1 && part.equals(anonymous))) return false;
    const alternative = this.alternatives[i];
    return alternative !== undefined && (part === alternative || part.equals(alternative)) ? true : null;
  }

  /** A run of known parts, compressed: kept, or made for this request when enough are kept. */
  private run(key: string, parts: readonly Buffer[], grew?: (bytes: number) => void): Buffer {
    const known = this.kept.get(key);
    if (known) return known;
    const bytes = Buffer.concat(parts);
    if (this.kept.size >= MAX_KEPT_RUNS) return deflateBlocks(bytes, 1);
    const run = keptBytes(deflateBlocks(bytes, KEPT_RUN_LEVEL));
    this.kept.set(key, run);
    grew?.(run.length);
    return run;
  }
}
