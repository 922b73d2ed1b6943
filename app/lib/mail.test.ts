import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readOutbox, sendMail } from "./mail.server";

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
});
