import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendMail } from "./mail.server";

// With SMTP_URL set, mail goes to the mail server and nothing of it (above all no reset link) is written
// to the log. A small SMTP server on a local port receives it.

describe("mail through an SMTP server", () => {
  let server: net.Server;
  let port = 0;
  const received: string[] = [];

  beforeAll(async () => {
    server = net.createServer((socket) => {
      let buffer = "";
      let message: string | null = null;
      socket.write("220 test ESMTP\r\n");
      socket.on("data", (chunk) => {
        buffer += chunk.toString("utf8");
        let end: number;
        while ((end = buffer.indexOf("\r\n")) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (message !== null) {
            if (line === ".") {
              received.push(message);
              message = null;
              socket.write("250 queued\r\n");
            } else message += `${line}\n`;
            continue;
          }
          const command = line.slice(0, 4).toUpperCase();
          if (command === "DATA") {
            message = "";
            socket.write("354 go ahead\r\n");
          } else if (command === "QUIT") {
            socket.end("221 bye\r\n");
          } else socket.write("250 ok\r\n");
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("delivers the message and logs neither it nor its links", async () => {
    const written: string[] = [];
    const spies = [
      vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void written.push(args.join(" "))),
      vi.spyOn(console, "info").mockImplementation((...args: unknown[]) => void written.push(args.join(" "))),
      vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true)),
    ];
    try {
      const link = "http://shop.test/auth/reset-password?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
      const sent = await sendMail(
        { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: "Unboxed <hello@unboxed.example>", dataDir: "/nonexistent" },
        { to: "ada@example.com", subject: "Reset your Unboxed password", text: `Open ${link}` },
      );
      expect(sent.file).toBeNull();
      expect(received.some((m) => m.includes("AAAAAAAAAAAAAAAA"))).toBe(true);
      expect(written.join("\n")).not.toContain("AAAAAAAA");
      expect(written.join("\n")).not.toContain("reset-password");
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
