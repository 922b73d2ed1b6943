import { startTermiiStandIn } from "./termii-stand-in";
import { startWhatsAppStandIn } from "./whatsapp-stand-in";

// The WhatsApp and Termii stand-ins as one process, for the end-to-end journeys (playwright.config.ts starts it).
const shop = process.env.SHOP_URL ?? null;
const whatsapp = await startWhatsAppStandIn({
  port: Number(process.env.WHATSAPP_PORT ?? 3271),
  token: process.env.WHATSAPP_TOKEN ?? "stand-in-token-0123456789",
  phoneNumberId: process.env.WHATSAPP_PHONE_NUMBER_ID ?? "106540352242922",
  appSecret: process.env.WHATSAPP_APP_SECRET ?? "stand-in-app-secret",
  webhookUrl: shop ? `${shop}/webhooks/whatsapp` : null,
});
const termii = await startTermiiStandIn({
  port: Number(process.env.TERMII_PORT ?? 3272),
  apiKey: process.env.TERMII_API_KEY ?? "TLstandinkey0123456789",
  secretKey: process.env.TERMII_SECRET_KEY ?? "stand-in-termii-secret",
  webhookUrl: shop ? `${shop}/webhooks/termii` : null,
});
console.log(`WhatsApp stand-in at ${whatsapp.url}, Termii stand-in at ${termii.url}`);
const stop = () => void Promise.all([whatsapp.close(), termii.close()]).finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
