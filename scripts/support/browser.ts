import http from "node:http";
import zlib from "node:zlib";

/** One answer as the bench sees it: its status, time to its last byte and encoding; its body only when asked for. */
export interface Answer {
  status: number;
  ms: number;
  encoding: string;
  location: string | undefined;
  /** the decoded body, when the request asked to keep it */
  body: string | null;
}

const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, br",
  "accept-language": "en-GB,en;q=0.9",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) unboxed-bench",
};

/**
 * A new browser: its own keep-alive connection and cookie jar, starting without cookies and keeping
 * those the shop sets. Bodies are counted off the wire and dropped, except where a page's form must be
 * read, so the client takes as little of the machine's CPU as it can.
 */
export class Browser {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly cookies = new Map<string, string>();
  private readonly host: string;
  private readonly port: number;

  constructor(
    readonly base: string,
    private readonly timeoutMs = 10_000,
  ) {
    const url = new URL(base);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  get(path: string, options: { keepBody?: boolean; headers?: Record<string, string> } = {}): Promise<Answer> {
    return this.request("GET", path, undefined, options);
  }

  /** A form posted as a browser posts it from `fromPath`: the shop checks the Origin of every post. */
  postForm(path: string, fields: Record<string, string>, fromPath: string): Promise<Answer> {
    const headers = { origin: this.base, referer: this.base + fromPath, "content-type": "application/x-www-form-urlencoded" };
    return this.request("POST", path, new URLSearchParams(fields).toString(), { headers });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  close(): void {
    this.agent.destroy();
  }

  private request(method: string, path: string, body: string | undefined, options: { keepBody?: boolean; headers?: Record<string, string> }): Promise<Answer> {
    const started = performance.now();
    const headers: Record<string, string> = { ...BROWSER_HEADERS, ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request({ host: this.host, port: this.port, method, path, agent: this.agent, headers }, (res) => {
        this.keepCookies(res.headers["set-cookie"]);
        const chunks: Buffer[] | null = options.keepBody ? [] : null;
        res.on("data", (chunk: Buffer) => chunks?.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const encoding = res.headers["content-encoding"] ?? "identity";
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            encoding,
            location: res.headers.location,
            body: chunks ? decode(Buffer.concat(chunks), encoding) : null,
          });
        });
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`timeout after ${this.timeoutMs} ms`)));
      req.on("error", reject);
      req.end(body);
    });
  }

  private keepCookies(setCookies: string[] | undefined) {
    for (const line of setCookies ?? []) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

function decode(bytes: Buffer, encoding: string): string {
  if (encoding === "br") return zlib.brotliDecompressSync(bytes).toString("utf8");
  if (encoding === "gzip") return zlib.gunzipSync(bytes).toString("utf8");
  if (encoding === "deflate") return zlib.inflateSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

/**
 * The fields a browser sends with a page's add-to-cart form (the form posting to `action`, with its
 * hidden fields and checked choices), or null when the page has none or its button is disabled (sold out).
 */
export function addToCartForm(html: string, action = "/cart"): Record<string, string> | null {
  for (const [, attributes, inner] of html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    if (!attributes.includes(`action="${action}"`) || !/name="intent" value="add"/.test(inner)) continue;
    if (/<button[^>]*type="submit"[^>]*\sdisabled/.test(inner)) return null;
    const fields: Record<string, string> = {};
    for (const [input] of inner.matchAll(/<input[^>]*>/g)) {
      const attr = (name: string) => input.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
      const type = attr("type") ?? "text";
      const name = attr("name");
      if (!name || input.includes(" disabled")) continue;
      if (type === "hidden" || ((type === "radio" || type === "checkbox") && /\schecked/.test(input))) fields[name] = decodeEntities(attr("value") ?? "on");
    }
    return fields;
  }
  return null;
}

const decodeEntities = (value: string) => value.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
