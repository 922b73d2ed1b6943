import SQLite from "better-sqlite3";

/**
 * The page cache's second tier, on disk (docs/decisions/203): rendered anonymous storefront pages,
 * brotli-compressed, that memory does not hold. Memory keeps the pages asked most; a catalogue of
 * thousands of products is mostly pages asked now and then, each rendered again at every ask once
 * memory had let it go. Read back, a page costs a row read (and for a shopper, its decompression and
 * filling in) instead of a render.
 *
 * One SQLite temporary database per instance and per catalogue version: a file SQLite makes in the
 * system's temporary folder (SQLITE_TMPDIR or TMPDIR, else /var/tmp) and removes from the folder at
 * once, so no other process reads it, it is gone when the server stops however it stops, and it is
 * emptied in no time (a fresh one) when the catalogue changes. It is a cache: nothing waits for the
 * disk, and a failed write only leaves the page out. Oldest written out first once past `maxBytes`.
 */
export interface StoredPage {
  status: number;
  headers: [string, string][];
  nonce: string;
  etag: string;
  storedAt: number;
  /** the page as sent, compressed with brotli */
  br: Buffer;
}

/**
 * What an order that sold nothing out may have changed of a page (docs/decisions/205): the product it
 * is the page of, if any, and whether any order changes it (a listing in best-selling order, the sitemap).
 */
export interface OrderTies {
  productId: number | null;
  everyOrder: boolean;
}

export interface PageStoreStats {
  pages: number;
  bytes: number;
  hits: number;
  writes: number;
}

/** Rows dropped at a time once the store is past its bytes. */
const DROPPED_AT_ONCE = 8;

export class PageStore {
  private db!: SQLite.Database;
  private read!: SQLite.Statement<[string]>;
  private readTime!: SQLite.Statement<[string]>;
  private forget!: SQLite.Statement<[string]>;
  private forgetOrdered!: SQLite.Statement<[string]>;
  private write!: SQLite.Statement<[string, number | null, number, number, number, string, Buffer]>;
  private dropOldest!: SQLite.Statement<[number]>;
  private bytes = 0;
  private pages = 0;
  private hits = 0;
  private writes = 0;
  readonly maxBytes: number;

  constructor(options: { maxBytes: number }) {
    this.maxBytes = options.maxBytes;
    this.open();
  }

  private open(): void {
    // No name: SQLite's temporary database, on disk once past its page cache.
    const db = new SQLite("");
    db.pragma("synchronous = OFF");
    // Its own page cache small (the rest is written to the file): a page is read once per ask, and the
    // operating system's cache holds the file.
    db.pragma("cache_size = -1024");
    // product_id and every_order: the page's OrderTies.
    db.exec(
      "CREATE TABLE pages (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, product_id INTEGER, every_order INTEGER NOT NULL, stored_at INTEGER NOT NULL, bytes INTEGER NOT NULL, head TEXT NOT NULL, br BLOB NOT NULL);" +
        "CREATE INDEX pages_product ON pages (product_id); CREATE INDEX pages_every_order ON pages (every_order) WHERE every_order",
    );
    this.db = db;
    this.read = db.prepare("SELECT stored_at, head, br FROM pages WHERE key = ?");
    this.readTime = db.prepare("SELECT stored_at FROM pages WHERE key = ?").pluck();
    this.forget = db.prepare("DELETE FROM pages WHERE key = ? RETURNING bytes");
    this.forgetOrdered = db.prepare("DELETE FROM pages WHERE every_order OR product_id IN (SELECT value FROM json_each(?)) RETURNING bytes");
    this.write = db.prepare("INSERT INTO pages (key, product_id, every_order, stored_at, bytes, head, br) VALUES (?, ?, ?, ?, ?, ?, ?)");
    this.dropOldest = db.prepare("DELETE FROM pages WHERE id IN (SELECT id FROM pages ORDER BY id LIMIT ?) RETURNING bytes");
    this.bytes = 0;
    this.pages = 0;
  }

  /** The page kept under `key`, if any and written after `since` (a time in ms). */
  get(key: string, since: number): StoredPage | undefined {
    const row = this.read.get(key) as { stored_at: number; head: string; br: Buffer } | undefined;
    if (!row || row.stored_at < since) return undefined;
    this.hits++;
    const head = JSON.parse(row.head) as Omit<StoredPage, "br" | "storedAt">;
    return { ...head, storedAt: row.stored_at, br: row.br };
  }

  /** Whether a page is kept under `key`, written after `since` (a time in ms); not counted as a hit. */
  has(key: string, since: number): boolean {
    const storedAt = this.readTime.get(key) as number | undefined;
    return storedAt !== undefined && storedAt >= since;
  }

  /** Keeps `page` under `key`, with what an order may change of it (unless told, any order). */
  put(key: string, page: StoredPage, ties: OrderTies = { productId: null, everyOrder: true }): void {
    const head = JSON.stringify({ status: page.status, headers: page.headers, nonce: page.nonce, etag: page.etag });
    const bytes = key.length + head.length + page.br.length;
    if (bytes > this.maxBytes / 8) return;
    try {
      // A page written again (its time was up) replaces its row, and goes to the back of the line.
      const replaced = this.forget.get(key) as { bytes: number } | undefined;
      if (replaced) {
        this.bytes -= replaced.bytes;
        this.pages--;
      }
      this.write.run(key, ties.productId, ties.everyOrder ? 1 : 0, page.storedAt, bytes, head, page.br);
    } catch {
      // A full disk: the page is simply not stored.
      return;
    }
    this.writes++;
    this.pages++;
    this.bytes += bytes;
    while (this.bytes > this.maxBytes && this.pages > 0) {
      const dropped = this.dropOldest.all(DROPPED_AT_ONCE) as { bytes: number }[];
      if (dropped.length === 0) {
        this.bytes = 0;
        this.pages = 0;
        break;
      }
      for (const row of dropped) this.bytes -= row.bytes;
      this.pages -= dropped.length;
    }
  }

  /** The pages an order of these products that sold none out may have changed, out (docs/decisions/205). */
  forgetPagesOf(productIds: readonly number[]): void {
    try {
      const dropped = this.forgetOrdered.all(JSON.stringify(productIds)) as { bytes: number }[];
      for (const row of dropped) this.bytes -= row.bytes;
      this.pages -= dropped.length;
    } catch {
      // Whatever could not be read out cannot be trusted: start afresh.
      this.clear();
    }
  }

  /** Every page out: a new, empty file (the catalogue changed). */
  clear(): void {
    this.db.close();
    this.open();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  stats(): PageStoreStats {
    return { pages: this.pages, bytes: this.bytes, hits: this.hits, writes: this.writes };
  }
}
