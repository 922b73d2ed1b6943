import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { queueMessage } from "~/domain/messages/outbox.server";
import { ENGINES, freshDatabase, type TestDatabase } from "../support/databases";
import { startTermiiStandIn, type TermiiStandIn } from "../support/termii-stand-in";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../support/whatsapp-stand-in";

// The crash test of the WhatsApp and SMS outbox (docs/decisions/220): the real worker, in a process of
// its own (tests/support/message-worker-cli.ts), sends 200 queued messages to the providers' stand-ins
// and is killed with SIGKILL three times while sending: once while the provider holds a message it has
// accepted but not answered, once just as the answer leaves, once at a moment the test does not choose.
// Each time it is started again. At the end every message reached the provider, every row is `sent`
// once, and the provider saw no more duplicates than there were messages in flight at the kills (the
// worker sends one message at a time: at most one per kill).

const TOKEN = "EAAGcrashtesttoken0123456789";
const PHONE_ID = "106540352242922";
const TERMII_KEY = "TLcrashkey0123456789";
const MESSAGES = 200;
const SMS_EVERY = 5;
/** short, so the message a killed worker held goes out again within the test */
const LEASE_MS = 1500;
const PHASE_LIMIT_MS = 40_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = PHASE_LIMIT_MS): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

type KillPoint = "provider-holds-it" | "answer-leaving" | "any-moment";

describe.each(ENGINES)("the message worker killed with SIGKILL while sending, on %s", (engine) => {
  let t: TestDatabase | undefined;
  let whatsapp: WhatsAppStandIn | undefined;
  let termii: TermiiStandIn | undefined;
  const children = new Set<ChildProcess>();

  afterEach(async () => {
    // Whatever the outcome, nothing this test started outlives it.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGKILL");
    children.clear();
    await whatsapp?.close();
    await termii?.close();
    await t?.drop();
  });

  it("loses no message, marks each sent once, and duplicates at most the one in flight per kill", { timeout: 180_000 }, async () => {
    t = await freshDatabase(engine);
    const db = t.db;
    let worker: ChildProcess | null = null;
    let accepted = 0;
    // The kill points by the provider's count of accepted messages.
    const plan: { at: number; point: KillPoint }[] = [
      { at: 23, point: "provider-holds-it" },
      { at: 71, point: "answer-leaving" },
      { at: 120 + Math.floor(Math.random() * 20), point: "any-moment" },
    ];
    const kills: { point: KillPoint; accepted: number; reference: string | null }[] = [];

    const kill = (point: KillPoint, reference: string | null) => {
      if (!worker?.pid || worker.exitCode !== null || worker.signalCode !== null) return;
      kills.push({ point, accepted, reference });
      process.kill(worker.pid, "SIGKILL");
    };
    const onAccepted = async (reference: string | null) => {
      accepted++;
      const next = plan[kills.length];
      if (!next || accepted !== next.at) return;
      if (next.point === "provider-holds-it") {
        kill(next.point, reference);
        // The worker is gone: its request is answered into a closed connection.
        await sleep(50);
      } else if (next.point === "answer-leaving") {
        setImmediate(() => kill(next.point, reference));
      }
    };
    whatsapp = await startWhatsAppStandIn({ token: TOKEN, phoneNumberId: PHONE_ID, appSecret: "crash-app-secret", onAccepted: (m) => onAccepted(m.reference) });
    termii = await startTermiiStandIn({ apiKey: TERMII_KEY, secretKey: "crash-termii-secret", balance: 10_000, onAccepted: (m) => onAccepted(/key=(\S+)/.exec(m.sms)?.[1] ?? null) });

    // Queued through the shop's own function, as an order's transaction queues them.
    const keys: string[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const sms = i % SMS_EVERY === 0;
      const key = `crash-test:${i}:${sms ? "sms" : "whatsapp"}`;
      keys.push(key);
      await queueMessage(db, {
        channel: sms ? "sms" : "whatsapp",
        kind: "order-placed",
        idempotencyKey: key,
        to: `+23480312${String(10_000 + i).padStart(5, "0")}`,
        locale: "en",
        template: sms ? null : "unboxed_order_placed",
        params: ["Ada", `UB-${10_000 + i}`, "₦1.00", "http://shop.test/track"],
        text: `Unboxed: your order is placed. key=${key}`,
      });
    }

    const start = () => {
      const child = spawn(process.execPath, ["--import", "tsx", "tests/support/message-worker-cli.ts"], {
        env: {
          ...process.env,
          DATABASE_URL: t!.url ?? "",
          SQLITE_PATH: t!.url ? "" : t!.location,
          WHATSAPP_TOKEN: TOKEN,
          WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
          WHATSAPP_API_URL: whatsapp!.url,
          TERMII_API_KEY: TERMII_KEY,
          TERMII_API_URL: termii!.url,
          MESSAGE_LEASE_MS: String(LEASE_MS),
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let errors = "";
      child.stderr!.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
      child.on("exit", (code, signal) => {
        if (signal !== "SIGKILL" && signal !== "SIGTERM" && code !== 0) console.error(`message worker exited with ${code}: ${errors}`);
      });
      children.add(child);
      worker = child;
      return child;
    };
    const exited = (child: ChildProcess) =>
      child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once("exit", () => resolve()));

    for (const step of plan) {
      const child = start();
      if (step.point === "any-moment") {
        await until(`${step.at} accepted messages`, () => accepted >= step.at);
        kill(step.point, null);
      }
      await Promise.race([exited(child), sleep(PHASE_LIMIT_MS).then(() => Promise.reject(new Error(`the worker was not killed at ${step.point}`)))]);
      expect(child.signalCode).toBe("SIGKILL");
    }
    // Started once more, it finishes the outbox: what the killed workers held goes out after their lease.
    const last = start();
    const pending = async () =>
      Number((await db.selectFrom("message_outbox").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "!=", "sent").executeTakeFirstOrThrow()).n);
    await until("every message sent", async () => (await pending()) === 0, 60_000);
    process.kill(last.pid!, "SIGTERM");
    await exited(last);

    expect(kills.map((k) => k.point)).toEqual(plan.map((p) => p.point));
    // What the providers received, by idempotency key (WhatsApp carries it as biz_opaque_callback_data).
    const received = new Map<string, string[]>();
    for (const m of whatsapp.sent) received.set(m.reference ?? "?", [...(received.get(m.reference ?? "?") ?? []), m.id]);
    for (const m of termii.sent) {
      const key = /key=(\S+)/.exec(m.sms)?.[1] ?? "?";
      received.set(key, [...(received.get(key) ?? []), m.messageId]);
    }
    // None lost: every message reached its provider, and nothing else did.
    expect(keys.filter((key) => !received.has(key))).toEqual([]);
    expect([...received.keys()].filter((key) => !keys.includes(key))).toEqual([]);
    // Each row is sent, once, with the id of one of the provider's copies.
    const rows = await db.selectFrom("message_outbox").select(["idempotency_key", "status", "sent_at", "provider_message_id", "attempts"]).execute();
    expect(rows).toHaveLength(MESSAGES);
    for (const row of rows) {
      expect(row.status).toBe("sent");
      expect(row.sent_at).not.toBeNull();
      expect(received.get(row.idempotency_key)).toContain(row.provider_message_id);
    }
    // At least once, and no more than that: a second copy only of a message in flight at a kill.
    const sends = whatsapp.sent.length + termii.sent.length;
    const duplicated = [...received].filter(([, ids]) => ids.length > 1).map(([key]) => key);
    expect(sends - MESSAGES).toBe(duplicated.length);
    expect(duplicated.length).toBeLessThanOrEqual(kills.length);
    expect(Math.max(...[...received.values()].map((ids) => ids.length))).toBeLessThanOrEqual(2);
    // The message the provider held when its worker died was sent again, by the next worker, after the lease.
    const held = kills.find((k) => k.point === "provider-holds-it")!.reference!;
    expect(received.get(held)).toHaveLength(2);
    expect(duplicated).toContain(held);
    for (const key of duplicated) expect(rows.find((r) => r.idempotency_key === key)!.attempts).toBeGreaterThanOrEqual(2);
  });
});
