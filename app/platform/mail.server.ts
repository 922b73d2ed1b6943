import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { Config } from "./config.server";

/**
 * Outgoing e-mail. With SMTP_URL set, messages go to that server. Without it, each message is
 * written as an .eml file to DATA_DIR/mail/ (the outbox) and logged, so a developer can open the
 * links and tests can read what was sent. The shop itself never calls this directly: it queues mail
 * with queueMail (app/domain/operations/mail-outbox.server.ts), whose worker sends it from here.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  /** the outbox file, when there is no SMTP server */
  file: string | null;
}

const transports = new Map<string, Transporter>();

/** Loaded with the first message: a shop that sends none does not hold it. */
async function transportFor(config: Pick<Config, "smtpUrl">): Promise<Transporter> {
  const key = config.smtpUrl ?? "outbox";
  let transport = transports.get(key);
  if (!transport) {
    const { default: nodemailer } = await import("nodemailer");
    transport = config.smtpUrl
      ? // Bounded waits: a mail server that hangs must not hold a send (and its outbox row) for minutes.
        nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 25_000 })
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    transports.set(key, transport);
  }
  return transport;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, "mail");
}

/**
 * Writes the file whole or not at all: a temporary file in the same folder, flushed to disk, then
 * renamed over the final name. A crash mid-write leaves no empty or half .eml behind.
 */
async function writeFileAtomically(file: string, content: Buffer): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  const handle = await fs.open(temp, "w", 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Removes temporary files left by a process that died while writing one (their name carries the
 * writer's process id); files of a process still running are left alone.
 */
export async function removeAbandonedOutboxFiles(dataDir: string): Promise<number> {
  const dir = outboxDir(dataDir);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const pid = Number(name.match(/^\..*\.(\d+)\.[a-z0-9]+\.tmp$/)?.[1]);
    if (!pid || isRunning(pid)) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface SendOptions {
  /**
   * A name for this message that stays the same when it is sent again (the outbox row's id): the
   * outbox file is then named after it, so sending it twice after a crash leaves one file, not two.
   */
  key?: string;
  /** when the message was written, for the file name (defaults to now) */
  at?: string;
}

export async function sendMail(config: Pick<Config, "smtpUrl" | "mailFrom" | "dataDir">, message: MailMessage, options: SendOptions = {}): Promise<SentMail> {
  const info = await (await transportFor(config)).sendMail({ from: config.mailFrom, ...message });
  if (config.smtpUrl) return { file: null };
  const dir = outboxDir(config.dataDir);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, "_");
  const stamp = (options.at ?? new Date().toISOString()).replace(/[:.]/g, "-");
  const suffix = options.key ? options.key.replace(/[^a-z0-9_-]/gi, "_") : Math.random().toString(36).slice(2, 8);
  const file = path.join(dir, `${stamp}-${safeTo}-${suffix}.eml`);
  await writeFileAtomically(file, (info as unknown as { message: Buffer }).message);
  const links = message.text.match(/https?:\/\/\S+/g) ?? [];
  console.log(`[mail] "${message.subject}" to ${message.to} written to ${file}${links.length ? `\n[mail] links: ${links.join(" ")}` : ""}`);
  return { file };
}

/** The outbox's messages for one address, newest last (for tests and local development). */
export async function readOutbox(dataDir: string, to?: string): Promise<{ file: string; raw: string }[]> {
  const dir = outboxDir(dataDir);
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".eml")).sort();
  const all = await Promise.all(names.map(async (n) => ({ file: path.join(dir, n), raw: await fs.readFile(path.join(dir, n), "utf8") })));
  return to ? all.filter((m) => new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "mi").test(m.raw)) : all;
}
