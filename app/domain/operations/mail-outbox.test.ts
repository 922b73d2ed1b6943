import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { freePort } from "../../../tests/support/free-port";
import { outboxDir, readOutbox } from "~/platform/mail.server";
import { drainMailOutbox, MAIL_GIVE_UP_AFTER_MS, mailOutboxCounts, queueMail, retryDelayMs, startMailWorker } from "./mail-outbox.server";

const message = (to: string, subject = "Hello") => ({ to, subject, text: `Text for ${to}`, html: `<p>HTML for ${to}</p>`, kind: "test" });

/** An SMTP server that answers every recipient with 550: a permanent refusal. */
async function refusingSmtpServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.write("220 refuser ESMTP\r\n");
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      let end;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (line.startsWith("EHLO") || line.startsWith("HELO")) socket.write("250 refuser\r\n");
        else if (line.startsWith("MAIL FROM")) socket.write("250 ok\r\n");
        else if (line.startsWith("RCPT TO")) socket.write("550 5.1.1 no such mailbox\r\n");
        else if (line.startsWith("QUIT")) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(ENGINES)("mail outbox on %s", (engine) => {
  let t: TestDatabase;
  let dataDir: string;
  let config: { smtpUrl: string | null; mailFrom: string; dataDir: string };

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  beforeEach(async () => {
    await t.db.deleteFrom("mail_outbox").execute();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-outbox-"));
    config = { smtpUrl: null, mailFrom: "Unboxed <hello@unboxed.example>", dataDir };
  });
  afterAll(async () => {
    await t?.drop();
  });

  const rows = () => t.db.selectFrom("mail_outbox").selectAll().orderBy("id").execute();
  const files = () => (fs.existsSync(outboxDir(dataDir)) ? fs.readdirSync(outboxDir(dataDir)) : []);

  it("keeps a message exactly when the transaction that queued it commits", async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await queueMail(trx, message("rolled-back@example.com"));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await t.db.transaction().execute((trx) => queueMail(trx, message("committed@example.com")));
    expect((await rows()).map((r) => [r.to_address, r.status, r.attempts])).toEqual([["committed@example.com", "pending", 0]]);
    expect(await mailOutboxCounts(t.db)).toEqual({ pending: 1, retrying: 0, failed: 0 });

    expect(await drainMailOutbox(t.db, config)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [row] = await rows();
    expect(row.status).toBe("sent");
    expect(row.sent_at).not.toBeNull();
    const [mail] = await readOutbox(dataDir, "committed@example.com");
    expect(mail.raw).toMatch(/^Subject: Hello$/m);
    expect(mail.raw).toContain("Content-Type: text/html");
    expect(await readOutbox(dataDir, "rolled-back@example.com")).toEqual([]);
    // Nothing is sent twice.
    expect(await drainMailOutbox(t.db, config)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await mailOutboxCounts(t.db)).toEqual({ pending: 0, retrying: 0, failed: 0 });
  });

  it("refuses an address that could smuggle headers", async () => {
    await expect(queueMail(t.db, message("a@example.com\r\nBcc: b@example.com"))).rejects.toThrow();
    await expect(queueMail(t.db, message("   "))).rejects.toThrow();
    expect(await rows()).toEqual([]);
  });

  it("writes each outbox file whole, under one name per message: sending again after a crash leaves one file", async () => {
    await queueMail(t.db, message("again@example.com"));
    await drainMailOutbox(t.db, config);
    const first = files();
    expect(first).toHaveLength(1);
    // As if the process died after writing the file but before marking the row sent.
    await t.db.updateTable("mail_outbox").set({ status: "pending", sent_at: null }).execute();
    expect(await drainMailOutbox(t.db, config)).toMatchObject({ sent: 1 });
    expect(files()).toEqual(first);
    for (const name of files()) expect(fs.statSync(path.join(outboxDir(dataDir), name)).size).toBeGreaterThan(100);
  });

  it("keeps mail when the mail server is down, retries with growing waits, and sends it once the server is back", async () => {
    const port = await freePort();
    const down = { ...config, smtpUrl: `smtp://127.0.0.1:${port}` };
    await queueMail(t.db, message("patient@example.com"));
    const before = Date.now();
    expect(await drainMailOutbox(t.db, down)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    let [row] = await rows();
    expect(row).toMatchObject({ status: "pending", attempts: 1, locked_until: null });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    const wait = Date.parse(row.next_attempt_at) - before;
    expect(wait).toBeGreaterThanOrEqual(retryDelayMs(1) - 50);
    expect(wait).toBeLessThan(retryDelayMs(1) + 5_000);
    expect(await mailOutboxCounts(t.db)).toEqual({ pending: 1, retrying: 1, failed: 0 });
    // Not due yet: nothing happens.
    expect(await drainMailOutbox(t.db, down)).toEqual({ sent: 0, retrying: 0, failed: 0 });

    await t.db.updateTable("mail_outbox").set({ next_attempt_at: new Date(Date.now() - 1).toISOString() }).execute();
    expect(await drainMailOutbox(t.db, down)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    [row] = await rows();
    expect(row.attempts).toBe(2);
    expect(Date.parse(row.next_attempt_at) - Date.now()).toBeGreaterThan(retryDelayMs(1) + 1000);

    await t.db.updateTable("mail_outbox").set({ next_attempt_at: new Date(Date.now() - 1).toISOString() }).execute();
    expect(await drainMailOutbox(t.db, config)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await readOutbox(dataDir, "patient@example.com")).toHaveLength(1);
    expect(retryDelayMs(1)).toBe(10_000);
    expect(retryDelayMs(3)).toBe(40_000);
    expect(retryDelayMs(30)).toBe(60 * 60 * 1000);
  });

  it("gives up on a refused recipient at once, and on a message still unsent after three days", async () => {
    const refuser = await refusingSmtpServer();
    try {
      await queueMail(t.db, message("nobody@example.com"));
      expect(await drainMailOutbox(t.db, { ...config, smtpUrl: refuser.url })).toEqual({ sent: 0, retrying: 0, failed: 1 });
      expect((await rows())[0]).toMatchObject({ status: "failed", attempts: 1 });
      expect((await rows())[0].last_error).toMatch(/550/);
    } finally {
      await refuser.close();
    }
    await queueMail(t.db, message("old@example.com"));
    await t.db
      .updateTable("mail_outbox")
      .set({ created_at: new Date(Date.now() - MAIL_GIVE_UP_AFTER_MS - 1000).toISOString() })
      .where("to_address", "=", "old@example.com")
      .execute();
    const down = { ...config, smtpUrl: `smtp://127.0.0.1:${await freePort()}` };
    expect(await drainMailOutbox(t.db, down)).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(await mailOutboxCounts(t.db)).toEqual({ pending: 0, retrying: 0, failed: 2 });
  });

  it("leaves a row another worker holds alone until its lease runs out", async () => {
    await queueMail(t.db, message("held@example.com"));
    await t.db.updateTable("mail_outbox").set({ locked_until: new Date(Date.now() + 60_000).toISOString(), attempts: 1 }).execute();
    expect(await drainMailOutbox(t.db, config)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    // That worker died: after the lease another sends it.
    await t.db.updateTable("mail_outbox").set({ locked_until: new Date(Date.now() - 1).toISOString() }).execute();
    expect(await drainMailOutbox(t.db, config)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect((await rows())[0].attempts).toBe(2);
  });

  it("sends every message exactly once when several workers drain at the same time", async () => {
    const count = 60;
    for (let i = 0; i < count; i++) await queueMail(t.db, message(`crowd${i}@example.com`, `Message ${i}`));
    const results = await Promise.all(Array.from({ length: 4 }, () => drainMailOutbox(t.db, config)));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(count);
    const all = await rows();
    expect(all.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
    expect(files().filter((n) => n.endsWith(".eml"))).toHaveLength(count);
    expect(files().filter((n) => !n.endsWith(".eml"))).toEqual([]);
  });

  it("runs in the server: what is queued is sent within moments, without waiting for the next poll", async () => {
    const worker = startMailWorker({ db: t.db, config, pollMs: 60_000 });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const queuedAt = Date.now();
      await t.db.transaction().execute((trx) => queueMail(trx, message("prompt@example.com")));
      await expect.poll(() => readOutbox(dataDir, "prompt@example.com").then((m) => m.length), { timeout: 5_000, interval: 20 }).toBe(1);
      expect(Date.now() - queuedAt).toBeLessThan(3_000);
    } finally {
      await worker.stop();
    }
  });
});
