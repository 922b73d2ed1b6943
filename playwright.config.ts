import os from "node:os";
import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";

type WebServer = Extract<PlaywrightTestConfig["webServer"], unknown[]>[number];

// End-to-end journeys drive the built production server in a real Chromium. No browser is
// downloaded: CHROME_PATH, else Debian's /usr/bin/chromium.
//
// The journeys run in E2E_WORKERS lanes at once: by default one per two cores, as a lane (a Chromium
// and a shop) keeps about two cores busy, so on 2 cores two lanes take as long as one. Each lane has a
// shop of its own (its own port, data folder and database) and its own Paystack, WhatsApp and Termii
// stand-ins, so journeys in different lanes never see each other's orders, settings or stock. A worker
// finds its lane in TEST_PARALLEL_INDEX, which Playwright sets in each worker before this file is
// loaded there; the runner itself (no index) starts every lane's servers.
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? Math.floor(os.availableParallelism() / 2)));
const lane = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

function lanePorts(k: number) {
  const shop = Number(process.env.E2E_PORT ?? 3107) + 100 * k;
  return {
    shop,
    // The Paystack stand-in (tests/support/paystack-stand-in.ts) follows the shop's port.
    paystack: process.env.E2E_PAYSTACK_PORT ? Number(process.env.E2E_PAYSTACK_PORT) + 100 * k : shop + 1000,
    // The WhatsApp and Termii stand-ins (tests/support/messaging-stand-ins-cli.ts).
    whatsapp: Number(process.env.E2E_WHATSAPP_PORT ?? 3252) + 20 * k,
    termii: Number(process.env.E2E_TERMII_PORT ?? 3253) + 20 * k,
  };
}
const laneDataDir = (k: number) => (k === 0 ? "tests/e2e/.data" : `tests/e2e/.data-${k}`);

const ports = lanePorts(lane);
export const E2E_PAYSTACK_SECRET = "sk_test_unboxed_e2e_stand_in";
/** This worker's shop's data folder (its SQLite file and mail outbox). */
export const E2E_DATA_DIR = laneDataDir(lane);
export const E2E_WHATSAPP_URL = `http://127.0.0.1:${ports.whatsapp}`;
export const E2E_TERMII_URL = `http://127.0.0.1:${ports.termii}`;
const messaging = {
  WHATSAPP_TOKEN: "EAAGe2estandintoken0123456789",
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  WHATSAPP_APP_SECRET: "e2e-whatsapp-app-secret",
  TERMII_API_KEY: "TLe2estandinkey0123456789",
  TERMII_SECRET_KEY: "e2e-termii-secret-key",
};

/** A lane's stand-ins and shop: a fresh shop with the demo catalogue for every run. */
function laneServers(k: number): WebServer[] {
  const { shop, paystack, whatsapp, termii } = lanePorts(k);
  const dataDir = laneDataDir(k);
  return [
    {
      command: "node --import tsx tests/support/paystack-stand-in-cli.ts",
      url: `http://127.0.0.1:${paystack}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { PORT: String(paystack), PAYSTACK_SECRET_KEY: E2E_PAYSTACK_SECRET, WEBHOOK_URL: `http://127.0.0.1:${shop}/webhooks/paystack` },
    },
    {
      command: "node --import tsx tests/support/messaging-stand-ins-cli.ts",
      url: `http://127.0.0.1:${whatsapp}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { WHATSAPP_PORT: String(whatsapp), TERMII_PORT: String(termii), SHOP_URL: `http://127.0.0.1:${shop}`, ...messaging },
    },
    {
      command: `rm -rf ${dataDir} && node build/server.js`,
      url: `http://127.0.0.1:${shop}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(shop),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${shop}`,
        LOG_LEVEL: "warn",
        // The journeys' orders mostly come from this one machine's address and many stay unpaid: the
        // per-address cap on units held unpaid (docs/decisions/213) is raised so they never meet it.
        HELD_UNITS_PER_IP: "1000",
        // The demo perfumes cost more than the default ₦50,000 up to which guests may pay on delivery.
        GUEST_PAY_ON_DELIVERY_MAX: "1000000",
        BANK_NAME: "Demo Bank",
        BANK_ACCOUNT_NAME: "Unboxed Perfumes Ltd",
        BANK_ACCOUNT_NUMBER: "0123456789",
        PAYSTACK_SECRET_KEY: E2E_PAYSTACK_SECRET,
        PAYSTACK_PUBLIC_KEY: "pk_test_unboxed_e2e_stand_in",
        PAYSTACK_API_URL: `http://127.0.0.1:${paystack}`,
        // WhatsApp and SMS through their stand-ins; cart reminders at any hour, looked for every second.
        ...messaging,
        WHATSAPP_API_URL: `http://127.0.0.1:${whatsapp}`,
        TERMII_API_URL: `http://127.0.0.1:${termii}`,
        CART_REMINDER_QUIET_HOURS: "0-0",
        CART_REMINDER_POLL_SECONDS: "1",
      },
    },
  ];
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers,
  retries: 0,
  timeout: 30_000,
  // A shared CI machine can be slow: assertions wait up to 10 s for the page to catch up.
  expect: { timeout: 10_000 },
  // A line per journey as it ends, and every failure in full once all have run (the end of a long log
  // is what a CI page shows).
  reporter: "list",
  use: {
    baseURL: `http://127.0.0.1:${ports.shop}`,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: Array.from({ length: workers }, (_, k) => laneServers(k)).flat(),
});
