import zlib from "node:zlib";
import { keptBytes } from "./kept-bytes.server";
import { RecentlyUsed } from "./recently-used";

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
 *
 * A place may also hold pieces that many shoppers' pages share though no page has them (a recently
 * viewed card: docs/decisions/194), each marked with `sharedPiece`. Such a piece is compressed once
 * for the piece before it, which it refers back into, and kept: a row of cards is made of pairs
 * another page has sent before (browsing moves the row by one card).
 */

/** A page's part: its bytes, or, for a place, the pieces that make them in order (some `sharedPiece`s). */
export type PagePart = Buffer | readonly Buffer[];

/** The bytes of a page made of `parts`. */
export function pageBytes(parts: readonly PagePart[]): Buffer {
  return Buffer.concat(parts.flatMap((part) => (Array.isArray(part) ? part : [part as Buffer])));
}

/** Each shared piece's own number (for the keys of the pairs kept: the piece itself is never copied), and its CRC. */
const sharedPieces = new WeakMap<Buffer, { id: number } & KnownCrc>();
let lastSharedPiece = 0;

/**
 * Marks bytes kept and put in many shoppers' pages as they are (a recently viewed card): compressed
 * after the piece before them once, then kept. The bytes must not change afterwards.
 */
export function sharedPiece(bytes: Buffer): Buffer {
  if (!sharedPieces.has(bytes)) sharedPieces.set(bytes, { id: ++lastSharedPiece, ...knownCrc(bytes) });
  return bytes;
}

/**
 * The CRC-32 of bytes, and what appending them does to the CRC of bytes before them (`shift`:
 * x^(8 · length) modulo CRC-32's polynomial). Kept with bytes sent many times (a kept run, a shared
 * piece), so a page's CRC is made from theirs without reading them again: zlib's crc32_combine.
 */
interface KnownCrc {
  crc: number;
  shift: number;
}

const CRC_POLYNOMIAL = 0xedb88320;

/** a · b modulo CRC-32's polynomial, both in its bit-reversed form (zlib's multmodp). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) product ^= b;
    b = b & 1 ? (b >>> 1) ^ CRC_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^n) modulo the polynomial, for n from 0 to 31 (zlib's x2n_table). */
const X_TO_TWO_TO_THE: number[] = [0x40000000];
for (let n = 1; n < 32; n++) X_TO_TWO_TO_THE.push(multiplyModP(X_TO_TWO_TO_THE[n - 1], X_TO_TWO_TO_THE[n - 1]));

function knownCrc(bytes: Buffer): KnownCrc {
  // x^(8 · length): the length's bits, from x^(2^3) on (zlib's x2nmodp(length, 3)).
  let shift = 0x80000000;
  for (let length = bytes.length, n = 3; length > 0; length = Math.floor(length / 2), n++) {
    if (length % 2) shift = multiplyModP(X_TO_TWO_TO_THE[n % 32], shift);
  }
  return { crc: bytes.length ? zlib.crc32(bytes) : 0, shift };
}

/** A page's CRC-32 and length, as its bytes are appended. */
class PageCrc {
  crc = 0;
  size = 0;

  add(bytes: Buffer): void {
    // zlib's crc32 of an empty buffer without memory behind it is 0, not the value passed in.
    if (bytes.length === 0) return;
    this.crc = zlib.crc32(bytes, this.crc);
    this.size += bytes.length;
  }

  addKnown(known: KnownCrc, length: number): void {
    this.crc = (multiplyModP(known.shift, this.crc) ^ known.crc) >>> 0;
    this.size += length;
  }
}

/**
 * Shared pieces compressed after the piece before them, by both their numbers (`r` and a number: after
 * a run the page keeps). A recently viewed row of 8 cards and their data is 17 pairs, each
 * 100–500 bytes: this keeps the pairs of some hundreds of rows, about 2 MB.
 */
const PAIRS_KEPT = 4_000;
const keptPairs = new RecentlyUsed<string, Buffer>(PAIRS_KEPT);

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
 * markup like the page's own (a recently viewed row's first card and frame, 2.7 KB, took 427 bytes
 * with as much of the page as a dictionary and 243 with this, in the same time); more costs time for little.
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
  const block = Buffer.allocUnsafe(5 + bytes.length);
  // Not the last block, stored.
  block[0] = 0;
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

/**
 * The shopper's own bytes, `pieces[from..to)`, compressed onto `out` and added to `crc`: a shared piece
 * after another shared piece, or first right after a run the page keeps (`lead`), from the pairs kept;
 * the rest now, referring back into the page before it.
 */
function ownBytes(pieces: readonly Buffer[], from: number, to: number, out: Buffer[], crc: PageCrc, lead?: KeptRun): void {
  let loose = from;
  const compressLoose = (end: number) => {
    const bytes = Buffer.concat(pieces.slice(loose, end));
    // What precedes these bytes on the page is known now: they may refer back into it.
    if (bytes.length >= STORED_BELOW) out.push(deflateBlocks(bytes, 1, bytesBefore(pieces, loose, DICTIONARY_BYTES)));
    else if (bytes.length) out.push(storedBlock(bytes));
    crc.add(bytes);
  };
  for (let k = from; k < to; k++) {
    const piece = sharedPieces.get(pieces[k]);
    if (piece === undefined) continue;
    const before = k === from ? (lead?.id === undefined ? undefined : `r${lead.id}`) : sharedPieces.get(pieces[k - 1])?.id;
    // After bytes of this shopper's own, a shared piece is compressed with them.
    if (before === undefined) continue;
    compressLoose(k);
    const key = `${before} ${piece.id}`;
    let pair = keptPairs.get(key);
    if (pair === undefined) {
      // After a kept run, its last bytes are the dictionary: only its own, which every shopper's page
      // has there (a row's frame, 2.7 KB with its first card, takes 0.24 KB so, and 1.1 KB alone).
      const dictionary = k === from ? bytesBefore(pieces, k, Math.min(DICTIONARY_BYTES, lead!.length)) : pieces[k - 1];
      keptPairs.set(key, (pair = keptBytes(deflateBlocks(pieces[k], KEPT_RUN_LEVEL, dictionary))));
    }
    out.push(pair);
    crc.addKnown(piece, pieces[k].length);
    loose = k + 1;
  }
  compressLoose(to);
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
  private readonly kept = new Map<string, KeptRun>();
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
  encode(parts: readonly PagePart[], grew?: (bytes: number) => void): Buffer | null {
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
        bytes += (parts[end++] as Buffer).length;
      }
      // The page's last run is kept however short: nothing of the shopper's follows it to share a compressor.
      add(i, end, bytes >= MIN_KEPT_RUN || end === parts.length ? `${i}-${end}${switched}` : null);
      i = end;
    }
    // The page's bytes as one list, each part's pieces in its place; `first[i]`: where part i's begin.
    const pieces: Buffer[] = [];
    const first: number[] = [];
    for (const part of parts) {
      first.push(pieces.length);
      if (Array.isArray(part)) pieces.push(...part);
      else pieces.push(part as Buffer);
    }
    first.push(pieces.length);
    const out: Buffer[] = [GZIP_HEADER];
    const crc = new PageCrc();
    let lead: KeptRun | undefined;
    for (const { start, end, key } of segments) {
      if (key === null) {
        ownBytes(pieces, first[start], first[end], out, crc, lead);
        lead = undefined;
      } else {
        lead = this.run(key, pieces.slice(first[start], first[end]), grew);
        out.push(lead.block);
        crc.addKnown(lead, lead.length);
      }
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc.crc, 0);
    trailer.writeUInt32LE(crc.size >>> 0, 4);
    out.push(FINAL_EMPTY_BLOCK, trailer);
    return Buffer.concat(out);
  }

  /**
   * What share of the page made of `parts` (0 to 1) is the shopper's own (`own`: bytes not known to
   * the page), and how much of it splicing compresses for them (`compressed`: not shared pieces either).
   */
  shares(parts: readonly PagePart[]): { own: number; compressed: number } {
    let own = 0;
    let compressed = 0;
    let all = 0;
    parts.forEach((part, i) => {
      if (!Array.isArray(part)) {
        const bytes = part as Buffer;
        all += bytes.length;
        if (this.known(i, bytes) !== null) return;
        own += bytes.length;
        if (!sharedPieces.has(bytes)) compressed += bytes.length;
        return;
      }
      for (const piece of part) {
        all += piece.length;
        own += piece.length;
        if (!sharedPieces.has(piece)) compressed += piece.length;
      }
    });
    return all === 0 ? { own: 0, compressed: 0 } : { own: own / all, compressed: compressed / all };
  }

  /**
   * Whether part i is known to the page: false as on the anonymous page, true as its alternative, null
   * the shopper's own. Fixed pieces are the template's own buffers; a place is compared by its bytes.
   */
  private known(i: number, part: PagePart | undefined): boolean | null {
    if (part === undefined || Array.isArray(part)) return null;
    const anonymous = this.anonymous[i];
    if (part === anonymous || (i % 2 === 1 && (part as Buffer).equals(anonymous))) return false;
    const alternative = this.alternatives[i];
    return alternative !== undefined && (part === alternative || (part as Buffer).equals(alternative)) ? true : null;
  }

  /** A run of known parts, compressed, with its CRC and length: kept, or made for this request when enough are kept. */
  private run(key: string, parts: readonly Buffer[], grew?: (bytes: number) => void): KeptRun {
    const known = this.kept.get(key);
    if (known) return known;
    const bytes = Buffer.concat(parts);
    if (this.kept.size >= MAX_KEPT_RUNS) return { block: deflateBlocks(bytes, 1), length: bytes.length, ...knownCrc(bytes) };
    const run = { block: keptBytes(deflateBlocks(bytes, KEPT_RUN_LEVEL)), length: bytes.length, ...knownCrc(bytes), id: ++lastKeptRun };
    this.kept.set(key, run);
    grew?.(run.block.length);
    return run;
  }
}

/** A run of parts known to a page, compressed, with its length and CRC; `id` once kept. */
interface KeptRun extends KnownCrc {
  block: Buffer;
  length: number;
  id?: number;
}
let lastKeptRun = 0;
