import { startPaystackStandIn } from "./paystack-stand-in";

// The Paystack stand-in as its own process, for the end-to-end journeys (playwright.config.ts starts it).
const port = Number(process.env.PORT ?? 3251);
const standIn = await startPaystackStandIn({
  port,
  secretKey: process.env.PAYSTACK_SECRET_KEY ?? "sk_test_stand_in",
  webhookUrl: process.env.WEBHOOK_URL ?? null,
});
console.log(`Paystack stand-in listening at ${standIn.url}`);
const stop = () => void standIn.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
