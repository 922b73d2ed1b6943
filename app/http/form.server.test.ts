import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bodyLimitFor, FORM_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "./body-limit.server";
import { MULTI_LINE_FIELDS, readForm, readFormBody } from "./form.server";

const url = "http://shop.test/profile";

/** A body that arrives in chunks with no declared length, counting how much of it was pulled. */
function chunked(chunkBytes: number, chunks: number) {
  const counter = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= chunks) return controller.close();
      counter.pulled++;
      controller.enqueue(new Uint8Array(chunkBytes).fill(97));
    },
  });
  return { body, counter };
}

async function thrownBy(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (thrown) {
    const refusal = thrown as { data: { message: string }; init: ResponseInit };
    return { status: refusal.init.status ?? 0, message: refusal.data.message };
  }
  throw new Error("expected a refusal");
}

describe("the form reader", () => {
  it("reads a urlencoded form and a multipart form with a file", async () => {
    const plain = await readForm(new Request(url, { method: "POST", body: new URLSearchParams({ street: "12 Allen Avenue" }) }));
    expect(plain.get("street")).toBe("12 Allen Avenue");

    const multipart = new FormData();
    multipart.set("name", "Oud Wood");
    multipart.set("image", new File([new Uint8Array(1000)], "photo.png", { type: "image/png" }));
    const read = await readForm(new Request(url, { method: "POST", body: multipart }));
    expect(read.get("name")).toBe("Oud Wood");
    expect((read.get("image") as File).size).toBe(1000);
  });

  it("accepts a form Content-Type with parameters and in any case", async () => {
    const read = await readForm(
      new Request(url, { method: "POST", body: "a=1&b=%C3%A9", headers: { "Content-Type": "Application/X-WWW-Form-Urlencoded; charset=UTF-8" } }),
    );
    expect(read.get("b")).toBe("é");
  });

  it("reads an empty form post (a button with no fields) as an empty form", async () => {
    const read = await readForm(new Request(url, { method: "POST", body: "", headers: { "Content-Type": "application/x-www-form-urlencoded" } }));
    expect([...read.keys()]).toEqual([]);
  });

  const notForms: [string, RequestInit][] = [
    ["JSON", { body: JSON.stringify({ street: "x" }), headers: { "Content-Type": "application/json" } }],
    ["text/plain", { body: "street=x", headers: { "Content-Type": "text/plain" } }],
    // a byte array gets no Content-Type from fetch
    ["no Content-Type", { body: new Uint8Array([115, 61, 120]) }],
    ["broken multipart", { body: "--nope\r\nnot a part", headers: { "Content-Type": "multipart/form-data; boundary=x" } }],
    ["multipart without a boundary", { body: "--x\r\n", headers: { "Content-Type": "multipart/form-data" } }],
    ["a Content-Length that is not a number", { body: "a=1", headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "ten" } }],
  ];
  it.each(notForms)("answers %s with 400 and a message in the shopper's language", async (_kind, init) => {
    const request = new Request(url, { method: "POST", ...init });
    expect(await readFormBody(new Request(url, { method: "POST", ...init }))).toMatchObject({ problem: "notAForm" });
    const en = await thrownBy(readForm(request));
    expect(en.status).toBe(400);
    expect(en.message).toMatch(/could not read/);
    const es = await thrownBy(readForm(new Request(url, { method: "POST", ...init, headers: { ...(init.headers as object), "Accept-Language": "es" } })));
    expect(es.message).toMatch(/No hemos podido leer/);
  });

  it("refuses a declared Content-Length above the limit with 413 before reading the body", async () => {
    const { body, counter } = chunked(1000, 50);
    const request = new Request(url, {
      method: "POST",
      body,
      duplex: "half",
      headers: { "Content-Length": String(50 * 1024 * 1024), "Content-Type": "application/x-www-form-urlencoded" },
    } as RequestInit);
    const refusal = await thrownBy(readForm(request, { maxBytes: 10_000 }));
    expect(refusal.status).toBe(413);
    expect(refusal.message).toMatch(/more than the shop accepts/);
    // what was pulled was thrown away, not kept
    expect(counter.pulled).toBeLessThanOrEqual(50);
  });

  it("counts a chunked body as it arrives and stops at the limit", async () => {
    const { body, counter } = chunked(64 * 1024, 10_000); // 640 MB if it were read whole
    const request = new Request(url, { method: "POST", body, duplex: "half", headers: { "Content-Type": "application/x-www-form-urlencoded" } } as RequestInit);
    expect(request.headers.get("Content-Length")).toBeNull();
    const before = process.memoryUsage().rss;
    expect(await readFormBody(request)).toEqual({ problem: "tooLarge", limit: FORM_BODY_LIMIT });
    // Up to 100 MB is read and thrown away so a browser hears the answer; the rest is never pulled.
    expect(counter.pulled).toBeLessThanOrEqual((100 * 1024 * 1024) / (64 * 1024) + 2);
    // Nothing read is kept (a loose bound: the garbage collector decides when thrown-away chunks go).
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it("reads a chunked form just under the limit", async () => {
    const value = "a".repeat(FORM_BODY_LIMIT - 10);
    const bytes = new TextEncoder().encode(`note=${value}`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 10_000) controller.enqueue(bytes.subarray(i, i + 10_000));
        controller.close();
      },
    });
    const read = await readForm(new Request(url, { method: "POST", body, duplex: "half", headers: { "Content-Type": "application/x-www-form-urlencoded" } } as RequestInit));
    expect((read.get("note") as string).length).toBe(value.length);
  });
});

describe("text fields hold text", () => {
  const urlencoded = (body: string | Uint8Array<ArrayBuffer>, language = "en") =>
    new Request(url, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": language } });
  const multipart = (parts: Buffer[], language = "en") =>
    new Request(url, {
      method: "POST",
      body: Buffer.concat([...parts.flatMap((part) => [Buffer.from("--unboxed-part\r\n"), part, Buffer.from("\r\n")]), Buffer.from("--unboxed-part--\r\n")]),
      headers: { "Content-Type": "multipart/form-data; boundary=unboxed-part", "Accept-Language": language },
    });
  const field = (name: string, value: Buffer | string) =>
    Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value)]);
  const file = (name: string, bytes: Buffer) =>
    Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), bytes]);

  it("refuses a NUL in a field with 400 and a message in the shopper's language", async () => {
    const body = "intent=add-address&street=12%20Marina%00Road&city=Lagos";
    expect(await readFormBody(urlencoded(body))).toMatchObject({ problem: "notText" });
    const en = await thrownBy(readForm(urlencoded(body)));
    expect(en).toEqual({ status: 400, message: expect.stringMatching(/not plain text/) });
    expect((await thrownBy(readForm(urlencoded(body, "es")))).message).toMatch(/no es texto normal/);
  });

  const refused: [string, string][] = [
    ["a raw NUL", "street=12 Marina\u0000Road"],
    ["an escape character", "city=%1B%5B31m"],
    ["a bell", "country=Nigeria%07"],
    ["DEL", "state=Lagos%7F"],
    ["a C1 control (NEL)", "street=a%C2%85b"],
    ["a line feed in a one-line field", "street=12%0ASet-Cookie"],
    ["a carriage return in a one-line field", "email=a%40b.ng%0D"],
    ["a tab in a one-line field", "firstName=Ada%09"],
    ["a NUL in a multi-line field", "body=Lovely%00scent"],
    ["a control in a field's name", "stre%00et=x"],
    ["a byte that is not UTF-8", "street=12%FFRoad"],
    ["a cut UTF-8 sequence", "city=Ab%C3"],
    ["a raw byte that is not UTF-8", "city=Ab\u00ff"],
    ["a surrogate written as UTF-8 bytes", "street=%ED%A0%80"],
  ];
  it.each(refused)("refuses %s", async (_kind, body) => {
    // "\u00ff" above stands for the single byte 0xFF, sent as it is
    const bytes = Buffer.from(body.replace("\u00ff", "\xff"), "latin1");
    expect(await readFormBody(urlencoded(new Uint8Array(bytes)))).toMatchObject({ problem: "notText" });
  });

  it("keeps tabs and line breaks in a textarea's field, and real non-Latin text and U+FFFD everywhere", async () => {
    const read = await readForm(urlencoded("body=Lovely%0D%0Ascent%09and%0Atrail&street=%E2%80%9C%C3%80d%C3%A9%E2%80%9D+%F0%9F%8C%B8&note=%EF%BF%BD&city=%EF%BF%BD"));
    expect(read.get("body")).toBe("Lovely\r\nscent\tand\ntrail");
    expect(read.get("street")).toBe("\u201cÀdé\u201d 🌸");
    expect(read.get("city")).toBe("\ufffd");
  });

  it("refuses bytes that are not UTF-8 in a multipart text field, not in a file", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0xc3]);
    const fine = await readFormBody(multipart([field("name", "Oud \ufffd Wood"), file("image", png)]));
    expect(fine.problem).toBeUndefined();
    expect(fine.form?.get("name")).toBe("Oud \ufffd Wood");
    expect(await readFormBody(multipart([field("name", Buffer.from([0x4f, 0xff, 0x64])), file("image", png)]))).toMatchObject({ problem: "notText" });
    expect(await readFormBody(multipart([field("name", "Oud\u0000Wood")]))).toMatchObject({ problem: "notText" });
    expect(await readFormBody(multipart([field("description", "Top notes:\r\n\tbergamot")]))).toMatchObject({ form: expect.anything() });
  });

  it("lists every textarea of the shop's forms as a multi-line field", () => {
    const names = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith(".tsx")) {
          for (const [, name] of fs.readFileSync(full, "utf8").matchAll(/<textarea\b[^>]*?\bname="([^"]+)"/gs)) names.add(name);
        }
      }
    };
    walk(path.resolve("app"));
    expect(names.size).toBeGreaterThanOrEqual(3);
    expect([...names].filter((name) => !MULTI_LINE_FIELDS.has(name))).toEqual([]);
  });
});

describe("body limits", () => {
  it("gives the upload limit only to multipart posts to the product form, with or without JavaScript", () => {
    const multipart = "multipart/form-data; boundary=----x";
    expect(bodyLimitFor("/admin/products", multipart)).toBe(UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products.data", multipart)).toBe(UPLOAD_BODY_LIMIT);
    expect(UPLOAD_BODY_LIMIT).toBeGreaterThan(5 * 1024 * 1024);
    expect(bodyLimitFor("/admin/products", "application/x-www-form-urlencoded")).toBe(FORM_BODY_LIMIT);
    expect(bodyLimitFor("/admin/products/x", multipart)).toBe(FORM_BODY_LIMIT);
    expect(bodyLimitFor("/admin/brands", multipart)).toBe(FORM_BODY_LIMIT);
    expect(bodyLimitFor("/auth/register", multipart)).toBe(FORM_BODY_LIMIT);
  });
});
