import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { outboxDir, readOutbox, removeAbandonedOutboxFiles, sendMail } from "./mail.server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-mail-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("mail outbox", () => {
  it("writes a real message with plain-text and HTML parts when no SMTP server is set", async () => {
    const config = { smtpUrl: null, mailFrom: "Unboxed <hello@unboxed.example>", dataDir };
    const sent = await sendMail(config, {
      to: "ada@example.com",
      subject: "Reset your password",
      text: "Open http://shop.test/auth/reset-password?token=abc",
      html: "<p>Open <a href=\"http://shop.test/auth/reset-password?token=abc\">this link</a></p>",
    });
    expect(sent.file).toMatch(/\.eml$/);
    const [message] = await readOutbox(dataDir, "ada@example.com");
    expect(message.raw).toMatch(/^From: Unboxed <hello@unboxed\.example>$/m);
    expect(message.raw).toMatch(/^To: ada@example\.com$/m);
    expect(message.raw).toMatch(/^Subject: Reset your password$/m);
    expect(message.raw).toContain("Content-Type: text/plain");
    expect(message.raw).toContain("Content-Type: text/html");
    expect(await readOutbox(dataDir, "someone@else.com")).toEqual([]);
  });

  it("removes the half-written files of a process that died, and only those", async () => {
    const dir = outboxDir(dataDir);
    fs.mkdirSync(dir, { recursive: true });
    const dead = ".2026-01-01T00-00-00-000Z-x@example.com-m1.eml.2147483646.abc123.tmp";
    const alive = `.2026-01-01T00-00-00-000Z-y@example.com-m2.eml.${process.pid}.def456.tmp`;
    fs.writeFileSync(path.join(dir, dead), "partial");
    fs.writeFileSync(path.join(dir, alive), "partial");
    expect(await removeAbandonedOutboxFiles(dataDir)).toBe(1);
    expect(fs.existsSync(path.join(dir, dead))).toBe(false);
    expect(fs.existsSync(path.join(dir, alive))).toBe(true);
    fs.rmSync(path.join(dir, alive));
    // Never an .eml: readers of the outbox do not see them.
    expect((await readOutbox(dataDir)).every((m) => m.file.endsWith(".eml"))).toBe(true);
  });
});
