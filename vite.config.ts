import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";

// Sonner injects its stylesheet as a <style> element at run time, which our Content-Security-Policy
// (style-src 'self') forbids. Its CSS is loaded as a style sheet of its own together with the library
// (components/toasts.tsx), so the injection is dropped.
const sonnerWithoutInlineStyles: Plugin = {
  name: "sonner-without-inline-styles",
  transform(code, id) {
    if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
    return code.replace("function __insertCSS(code) {", "function __insertCSS(code) {\n  return;");
  },
};

// Scripts and styles are compressed once, at build time and at the best ratio (brotli 11, gzip 9);
// the server sends these copies instead of compressing on every request.
const precompressAssets: Plugin = {
  name: "precompress-assets",
  apply: "build",
  async writeBundle(options, bundle) {
    if (this.environment.name !== "client" || !options.dir) return;
    for (const file of Object.keys(bundle)) {
      if (!/\.(js|css|svg)$/.test(file)) continue;
      const data = await fs.readFile(path.join(options.dir, file));
      if (data.length < 1024) continue;
      const brotli = zlib.brotliCompressSync(data, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      });
      await fs.writeFile(path.join(options.dir, `${file}.br`), brotli);
      await fs.writeFile(path.join(options.dir, `${file}.gz`), zlib.gzipSync(data, { level: 9 }));
    }
  },
};

// The small modules every page needs (React, the router, the shop's frame: the root and storefront
// layouts, header, footer, texts, toasts) travel as one script: one request and one compression window
// instead of a dozen, which saves about 2 KB of the page's 120 KB JavaScript budget. The client entry
// (entry.client.tsx) and React Router's browser half (react-router/dom) are in it too, so the bundler's
// own small helpers (CommonJS interop for React) land in it rather than in a script of their own; the
// two layout routes' own scripts only re-export from it. The entry's start-up code therefore runs when
// the page's first route module is imported, still before the boot script has named the route
// modules; hydration waits for the texts, so it starts after. The product cards and their buttons are
// not in it: the pages that show products load them, as one script with their stars; an order's
// status and payment badges are one script too (docs/decisions/140-javascript-budget.md).
const STOREFRONT_SHARED =
  /[\\/]app[\\/](root|routes[\\/]_store)\.tsx$|[\\/]app[\\/](entry\.client|lib[\\/](i18n|i18n\.client|images|money|use-hydrated|toast|cart|cart-optimistic|refusal)|components[\\/](cart-summary|icon|drawer|header-cart|store-header|store-footer|search-form|toasts))\.tsx?$|node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]|preload-helper|esm:react/;

// React Router publishes its package twice, and its "exports" name only the development copy, which
// keeps the developer warnings in (0.6 KiB gzipped in every page's shared script). Browsers get the
// production copy: the same code with those warnings compiled out. What the two copies render differs
// only in React Router's default error boundary, which the shop never shows (root.tsx has its own), so
// the server's render (development copy) and the hydration agree.
const reactRouterProductionCopy: Plugin = {
  name: "react-router-production-copy",
  apply: "build",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  async resolveId(source, importer, options) {
    if (source !== "react-router" && source !== "react-router/dom") return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved?.id.includes("/react-router/dist/development/")) return resolved;
    return { ...resolved, id: resolved.id.replace("/react-router/dist/development/", "/react-router/dist/production/") };
  },
};

// Vite wraps every dynamic import() of the client code (each language's texts, the toasts' library) in
// a helper that first loads the imported chunk's stylesheets and preloads its scripts, and on a failed
// import dispatches a `vite:preloadError` event before rethrowing. None of ours has stylesheets or
// scripts to preload (the toasts load their style sheet themselves: each call passes no dependencies)
// and nothing listens for that event, so the helper's 1.6 KB (0.5 KiB gzipped, on every page) is
// replaced by the plain import. The build stops if a lazily loaded chunk ever brings a stylesheet,
// which only Vite's helper would load.
const PRELOAD_HELPER_ID = "\0vite/preload-helper.js";
const slimPreloadHelper: Plugin = {
  name: "slim-preload-helper",
  apply: "build",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  load(id) {
    if (id !== PRELOAD_HELPER_ID) return null;
    return "export const __vitePreload = (load) => load();";
  },
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== "chunk") continue;
      for (const file of chunk.dynamicImports) {
        const lazy = bundle[file];
        if (lazy?.type === "chunk" && lazy.viteMetadata?.importedCss.size) {
          this.error(`${chunk.fileName} lazily imports ${file}, which brings a stylesheet: the slim preload helper (vite.config.ts) would not load it`);
        }
      }
    }
  },
};

// React is published as CommonJS: every chunk that imports it goes through the bundler's interop
// (`(0,r.useState)(…)`, `(0,x.jsx)(…)` at each use, and a helper that must load first). The client
// code imports it, and its JSX runtime, through these small ES modules in the shared script instead, so
// each use is a plain imported name and the helper stays in the shared script.
const REACT_MODULES: Record<string, { id: string; names: string[] }> = Object.fromEntries(
  ["react", "react/jsx-runtime"].map((name) => {
    const names = Object.keys(createRequire(import.meta.url)(name)).filter((key) => /^\w+$/.test(key));
    return [name, { id: `\0esm:${name}.js`, names }];
  }),
);
const reactAsModule: Plugin = {
  name: "react-as-module",
  apply: "build",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  resolveId(source, importer) {
    if (!REACT_MODULES[source] || !importer || importer.startsWith("\0") || !/[\\/]app[\\/]/.test(importer)) return null;
    return REACT_MODULES[source].id;
  },
  load(id) {
    const module = Object.entries(REACT_MODULES).find(([, { id: known }]) => known === id);
    if (!module) return null;
    const [source, { names }] = module;
    return `import * as cjs from ${JSON.stringify(source)};\n${names.map((name) => `export const ${name} = cjs.${name};`).join("\n")}`;
  },
};

// Texts that only the server writes (e-mails, the product API's refusals, messages an action translates
// before answering, toasts, which root.tsx translates, and the back-in-stock stop page) are left out of
// the language chunks sent to browsers; a dotted name leaves out one part of a section. A page's texts
// are otherwise loaded whole, per area (lib/i18n.client.ts).
const SERVER_ONLY_TEXTS: Record<string, string[]> = {
  // The form reader's refusals (a body that is not a form, too large, or not text), translated by the
  // action that refuses it (http/form.server.ts; the HTTP server's own 413, http/body-limit.server.ts).
  common: ["error.badForm", "error.tooLarge", "error.notText"],
  auth: ["email", "toast"],
  account: ["email", "expiry", "wishlist.added", "wishlist.removed", "wishlist.failed", "wishlist.empty", "orders.empty", "orders.viewDetails", "orders.viewDetailsOf", "orders.number", "orders.date", "orders.address", "orders.total", "orders.status", "orders.payment", "orders.details", "orders.pickup"],
  address: ["toast", "limitNote", "atMax"],
  cart: ["toast"],
  // The discount code's texts on the cart and the checkout are written by their loaders (docs/decisions/219).
  promotions: ["shopper", "toast", "order"],
  // The VAT line of the order e-mail (docs/decisions/223).
  invoice: ["vatLine"],
  // An order's payment line, how to pay and paying online, written by the order pages' loaders, and
  // why the checkout refused an order, written by its action; toasts, which the root loader translates.
  // The checkout's texts shown only after its action or only in one state are written by its loader
  // and action too (guest checkout and tracking: docs/decisions/217).
  // An order's payment line and how to pay are written by the order pages' loaders.
  order: ["paymentState", "pay"],
  purchase: [
    "checkout.problems",
    "checkout.placed",
    "checkout.confirmTotal",
    "checkout.confirmPickup",
    "checkout.fixTitle",
    "checkout.problemTitle",
    "checkout.empty",
    "checkout.continueShopping",
    "checkout.whatsapp",
    "checkout.whatsappHint",
    "checkout.title",
    "checkout.savedAddresses",
    "checkout.newAddress",
    "checkout.shipping",
    "checkout.saveAddress",
    "checkout.summary",
    "checkout.process",
    "checkout.processing",
    "checkout.lineStatus",
    "checkout.methodHints",
    "checkout.noPaymentFor",
    "checkout.noPaymentMethods",
    "pay",
    "guest",
    "track",
  ],
  // The product API's refusals, and what the product page's action answers already translated; the
  // delivery and service promises, which its loader writes.
  product: [
    "details.deliveryTitle",
    "details.deliveryText",
    "details.serviceTitle",
    "details.serviceText",
    "recentErrors",
    "backInStock.errors",
    "backInStock.toast",
    "backInStock.stop",
    "reviews.thanks",
    "reviews.errors.notBought",
    "reviews.errors.notDelivered",
    "reviews.errors.alreadyReviewed",
    "reviews.errors.unknownProduct",
    "reviews.errors.tooMany",
  ],
};
const serverOnlyTextsLeftOut: Plugin = {
  name: "server-only-texts-left-out",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  transform(code, id) {
    const area = id.match(/[\\/]app[\\/]locales[\\/][\w-]+[\\/]([\w-]+)\.json$/)?.[1];
    if (!area || !SERVER_ONLY_TEXTS[area]) return null;
    const texts = JSON.parse(code) as Record<string, unknown>;
    for (const section of SERVER_ONLY_TEXTS[area]) {
      const path = section.split(".");
      const last = path.pop()!;
      const parent = path.reduce<Record<string, unknown> | undefined>((at, key) => at?.[key] as Record<string, unknown> | undefined, texts);
      if (parent) delete parent[last];
    }
    return { code: JSON.stringify(texts), map: null };
  },
};

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), reactRouterProductionCopy, slimPreloadHelper, reactAsModule, sonnerWithoutInlineStyles, serverOnlyTextsLeftOut, precompressAssets],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  // Bundled into the server build so only the icons the admin uses are loaded: the whole package,
  // imported as it is, held about 45 MB of the server's memory.
  ssr: { noExternal: ["lucide-react"] },
  build: {
    // Small, fingerprinted chunks; the server sends them with a one-year immutable cache.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "storefront", test: STOREFRONT_SHARED },
            { name: "product-card", test: /[\\/]app[\\/]components[\\/](product-card|stars)\.tsx$/ },
            { name: "order-status", test: /[\\/]app[\\/]components[\\/](order-status|payment-status)\.tsx$/ },
            // The address form with its phone field, and the phone's formatting, are one script.
            { name: "address-fields", test: /[\\/]app[\\/](components[\\/](address-fields|phone-field)\.tsx|lib[\\/]phone\.ts)$/ },
          ],
        },
      },
    },
  },
});
