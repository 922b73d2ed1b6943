import { openDatabase } from "../../app/db/client.server";
import { startMessageWorker } from "../../app/domain/messages/outbox.server";

// The shop's WhatsApp and SMS worker (startMessageWorker, as server.ts runs it) alone in a process, for
// the crash test (app/domain/messages/message-crash.test.ts): it sends the outbox of DATABASE_URL (or the
// SQLite file SQLITE_PATH) to the providers at WHATSAPP_API_URL and TERMII_API_URL until it is killed.
const env = process.env;
const database = await openDatabase({ databaseUrl: env.DATABASE_URL || null, sqlitePath: env.SQLITE_PATH ?? "" });
startMessageWorker({
  db: database.db,
  messaging: {
    whatsapp: { token: env.WHATSAPP_TOKEN!, phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID!, appSecret: null, verifyToken: null, apiUrl: env.WHATSAPP_API_URL!, version: "v21.0" },
    sms: { apiKey: env.TERMII_API_KEY!, senderId: "Unboxed", channel: "dnd", secretKey: null, apiUrl: env.TERMII_API_URL! },
    ownerWhatsapp: null,
    quietHours: [21, 8],
    reminderPollSeconds: 60,
  },
  pollMs: 100,
  leaseMs: Number(env.MESSAGE_LEASE_MS ?? 30_000),
  logger: { warn: (o) => console.error(JSON.stringify(o)), error: (o) => console.error(JSON.stringify(o)) },
});
console.log("worker started");
// Runs until killed; an orderly stop on SIGTERM.
process.on("SIGTERM", () => void database.close().finally(() => process.exit(0)));
setInterval(() => {}, 60_000);
