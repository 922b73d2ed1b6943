import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import fs from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import type { ServerBuild } from "react-router";
import { openDatabase, type DatabaseHandle } from "./app/db/client.server";
import { migrateToLatest } from "./app/db/migrate.server";
import { isCatalogueEmpty, seedDemoCatalogue } from "./app/db/seed.server";
import { type Config, loadConfig } from "./app/platform/config.server";
import { imagesDir } from "./app/platform/images.server";
import { createLogger, type Logger } from "./app/platform/logger.server";
import { securityHeaders } from "./app/http/security-headers.server";
import { precompressedAssets } from "./app/http/precompressed-assets.server";
import { catalogChanged, onCatalogChange } from "./app/domain/catalogue/catalog.server";
import { startCatalogBroadcast } from "./app/domain/catalogue/catalog-broadcast.server";
import { startMailWorker } from "./app/domain/operations/mail-outbox.server";
import { moveSessionCookie } from "./app/http/session.server";
import { startOrderExpiryJob } from "./app/domain/orders/order-expiry.server";
import { startMessageWorker } from "./app/domain/messages/outbox.server";
import { startSalesClock } from "./app/domain/promotions/sales-clock.server";
import { createTranslator } from "./app/lib/i18n";
import enAccount from "./app/locales/en/account.json";
import { refuseLargeBodies } from "./app/http/body-limit.server";
import { requestsInFlight } from "./app/http/requests-in-flight.server";
import { refuseCrossSiteRequests } from "./app/http/origin-check.server";

const ONE_YEAR = 365 * 24 * 60 * 60 * 1000;

/** Any failure before the server listens ends the start with one clear line, and touches no data. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function prepareDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const database = await openDatabase(config);
  const applied = await migrateToLatest(database.db);
  if (applied.length) logger.info({ applied }, "database migrated");
  if (config.seedDemo && (await isCatalogueEmpty(database.db))) {
    logger.info("empty catalogue: adding the demo perfumes (first start only)");
    const seeded = await seedDemoCatalogue(database.db, { imagesDir: imagesDir(config.dataDir) });
    logger.info(`demo catalogue ready: ${seeded.products} perfumes, ${seeded.brands} brands`);
    if (seeded.admin) {
      // Shown once, never stored in clear: the owner should change it or create their own admin.
      console.log(`\n  Demo admin: ${seeded.admin.email}  password: ${seeded.admin.password}  (you choose your own at the first sign-in)\n`);
    }
  }
  return database;
}

/**
 * The app's build for the request handlers, and a way to reach its current modules. In production the
 * handlers get the build itself: given a function, React Router derives its route tables (and compiles
 * every route's pattern) again on every request.
 */
async function loadBuild(production: boolean, app: express.Express): Promise<{ forHandlers: ServerBuild | (() => Promise<ServerBuild>); current: () => Promise<ServerBuild> }> {
  if (production) {
    const buildPath = path.resolve("build/server/index.js");
    const build = (await import(buildPath).catch(() =>
      fail(`No production build at ${buildPath}: run "npm run build" first (npm start does it for you).`),
    )) as ServerBuild;
    app.use("/assets", precompressedAssets("build/client/assets", ONE_YEAR / 1000));
    app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: ONE_YEAR, index: false, fallthrough: false }));
    // The build's few top-level files (the favicon) are listed once here, so a page request does not
    // look for a file of its name on disk first.
    const topLevelFiles = new Set(fs.readdirSync("build/client").filter((name) => name !== "assets"));
    const serveTopLevel = express.static("build/client", { maxAge: "1h", index: false });
    app.use((req, res, next) => (topLevelFiles.has(req.path.slice(1)) ? serveTopLevel(req, res, next) : next()));
    return { forHandlers: build, current: async () => build };
  }
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true }, appType: "custom" });
  app.use(devServer.middlewares);
  const current = async () => (await devServer.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
  return { forHandlers: current, current };
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    fail((error as Error).message);
  }
  const logger = createLogger(config.logLevel);
  const production = config.env === "production";

  const database = await prepareDatabase(config, logger).catch((error: Error) => fail(error.message));

  // E-mails are queued in the database with what they report; this sends them (docs/decisions/060).
  const mailWorker = startMailWorker({ db: database.db, config, logger });
  // WhatsApp and SMS messages likewise, through the providers' APIs (docs/decisions/220).
  const messageWorker = startMessageWorker({ db: database.db, messaging: config.messaging, logger });
  // Unpaid orders older than ORDER_HOLD_HOURS are cancelled and their stock returned (docs/decisions/062).
  // Its e-mails are in English, the shop's default (accounts keep no language yet).
  const orderExpiry = startOrderExpiryJob({ db: database.db, config, logger, t: createTranslator("en", { account: enAccount }) });
  // Automatic sales go into the sizes' prices at their start and out at their end (docs/decisions/225);
  // safe with several instances (a run locks the clock's row).
  const salesClock = startSalesClock({ db: database.db, logger });

  const app = express();
  app.disable("x-powered-by");
  // Behind a reverse proxy on the same machine, the shopper's address comes from X-Forwarded-For.
  app.set("trust proxy", "loopback");

  // On PostgreSQL other instances may share the database: their catalogue changes reach this
  // instance's listeners (search counts, back-in-stock alerts) within a second (docs/decisions/146).
  const broadcast = config.databaseUrl
    ? startCatalogBroadcast({ databaseUrl: config.databaseUrl, onRemoteChange: (scope) => catalogChanged("elsewhere", scope), logger })
    : null;

  app.use(securityHeaders());
  // Every request that can change something must come from our own pages.
  app.use(refuseCrossSiteRequests(config.publicUrl));
  app.use(refuseLargeBodies());
  // Under https a session still sent under the cookie's old name is moved to `__Host-ub_session` (decision 212).
  app.use(moveSessionCookie(config.publicUrl));
  // Pages and data compressed as the browser asks (brotli or gzip), at levels for pages made per
  // request (docs/decisions/216): brotli at quality 3 with a 256 KB window, larger than any page (with
  // the default 4 MB window the 70 KB home page cost twice the CPU to serve; quality 3 takes 40 % less
  // than 4 for 6 % more bytes), gzip at level 4.
  app.use(compression({ level: 4, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } } }));
  const mode = production ? "production" : "development";
  const getLoadContext = (req: express.Request) => ({
    db: database.db,
    engine: database.engine,
    config,
    clientIp: req.ip || "unknown",
    // One object per GET, by which its loaders share the session read (sessions.server.ts).
    readsOfRequest: req.method === "GET" ? {} : undefined,
  });
  const { forHandlers: build, current: currentBuild } = await loadBuild(production, app);
  // The handlers that read and write the database are counted: a shutdown waits for their work, even
  // for a shopper who went away, before it closes the database.
  const inFlight = requestsInFlight();

  app.get("/healthz", async (_req, res) => {
    try {
      await database.db.selectFrom("products").select("id").limit(1).execute();
      res.set("Cache-Control", "no-store").json({ status: "ok", database: database.engine });
    } catch (error) {
      logger.error({ err: error }, "health check failed");
      res.status(503).set("Cache-Control", "no-store").json({ status: "error", database: database.engine });
    }
  });

  // Image files are named after their content, so they never change under the same URL.
  app.use("/images", express.static(imagesDir(config.dataDir), { immutable: true, maxAge: ONE_YEAR, index: false, fallthrough: false }));

  // Online orders still unpaid after 15 minutes are verified with Paystack again (a lost webhook, a
  // closed tab); safe with several instances (each order is claimed before it is checked). The check
  // lives in the app build (it writes translated e-mails), which exports it from entry.server.tsx.
  type Recheck = (context: { db: DatabaseHandle["db"]; config: Config }) => Promise<unknown>;
  const recheck = config.paystack
    ? setInterval(() => {
        currentBuild()
          .then((current) => (current.entry.module as { recheckUnpaidOnlinePayments?: Recheck }).recheckUnpaidOnlinePayments?.({ db: database.db, config }))
          .catch((error: Error) => logger.error({ err: error }, "payment re-check failed"));
      }, 60_000)
    : null;
  recheck?.unref();
  // Shoppers waiting for a sold-out product hear once it has stock again, however it came back: every
  // minute, and a second after any catalogue change (docs/decisions/133). Safe with several instances.
  type AlertSender = (db: DatabaseHandle["db"], config: Config) => Promise<number>;
  let alerting: Promise<unknown> | null = null;
  const sendAlerts = () => {
    alerting ??= currentBuild()
      .then((current) => (current.entry.module as { sendBackInStockAlerts?: AlertSender }).sendBackInStockAlerts?.(database.db, config))
      .then((count) => {
        if (count) logger.info({ event: "back_in_stock_alerts", count }, "back-in-stock alerts queued");
      })
      .catch((error: Error) => logger.error({ err: error }, "back-in-stock alerts failed"))
      .finally(() => {
        alerting = null;
      });
  };
  const alertsTimer = setInterval(sendAlerts, 60_000);
  alertsTimer.unref();
  let alertSoon: NodeJS.Timeout | null = null;
  onCatalogChange((where) => {
    // Another instance's change (stock back) is alerted by that instance.
    if (where === "elsewhere") return;
    alertSoon ??= setTimeout(() => {
      alertSoon = null;
      sendAlerts();
    }, 1000);
    alertSoon.unref();
  });
  // Carts left with items get their one reminder after the owner's delay, never at night in Lagos
  // (docs/decisions/220): a pass every minute, safe with several instances (the cart id is the key).
  type ReminderSender = (db: DatabaseHandle["db"], config: Config) => Promise<number>;
  let reminding: Promise<unknown> | null = null;
  const remindersTimer = setInterval(() => {
    reminding ??= currentBuild()
      .then((current) => (current.entry.module as { sendCartReminders?: ReminderSender }).sendCartReminders?.(database.db, config))
      .then((count) => {
        if (count) logger.info({ event: "cart_reminders", count }, "cart reminders queued");
      })
      .catch((error: Error) => logger.error({ err: error }, "cart reminders failed"))
      .finally(() => {
        reminding = null;
      });
  }, config.messaging.reminderPollSeconds * 1000);
  remindersTimer.unref();
  app.use(inFlight.track(createRequestHandler({ build, mode, getLoadContext })));

  const server: Server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info(`Unboxed is open at http://localhost:${port} (${database.engine}: ${database.location})`);
  });
  server.on("error", (error) => fail(`Cannot listen on ${config.host}:${config.port}: ${error.message}`));


  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (recheck) clearInterval(recheck);
    clearInterval(alertsTimer);
    clearInterval(remindersTimer);
    logger.info(`${signal}: finishing requests in flight, then closing`);
    // Stop accepting, let in-flight requests finish, then close the database. The connections close
    // as their answers are sent, but one whose shopper went away closes first: its request is waited
    // for too.
    server.close(async () => {
      if (!(await inFlight.answered(8_000))) logger.warn({ open: inFlight.count() }, "requests still at work after 8 s; closing anyway");
      await orderExpiry.stop().catch(() => {});
      await salesClock.stop().catch(() => {});
      await broadcast?.stop().catch(() => {});
      await mailWorker.stop().catch(() => {});
      await messageWorker.stop().catch(() => {});
      await database.close().catch(() => {});
      logger.info("closed");
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => {
      logger.warn("requests still open after 10 s; closing anyway");
      void database.close().finally(() => process.exit(1));
    }, 10_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

void main();
