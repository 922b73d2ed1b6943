import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import fs from "node:fs/promises";
import path from "node:path";
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

// The small modules every page needs (React, the router, the shop's frame: header, footer, texts,
// toasts) travel as one script: one request and one compression window instead of a dozen, which saves
// about 2 KB of the page's 120 KB JavaScript budget. The product cards and their buttons are not in it:
// the pages that show products load them (docs/decisions/140-javascript-budget.md).
const STOREFRONT_SHARED =
  /[\\/]app[\\/](lib[\\/](i18n|i18n\.client|images|money|use-hydrated|toast|cart|cart-optimistic|nonce|refusal)|components[\\/](cart-summary|icon|drawer|header-cart|store-header|store-footer|search-form|toasts))\.tsx?$|node_modules[\\/](react|react-dom|scheduler)[\\/]|preload-helper/;

// Texts that only the server writes (e-mails, the product API's refusals, messages an action translates
// before answering) are left out of the language chunks sent to browsers; a dotted name leaves out one
// part of a section. A page's texts are otherwise loaded whole, per area (lib/i18n.client.ts).
const SERVER_ONLY_TEXTS: Record<string, string[]> = {
  auth: ["email"],
  account: ["email", "expiry"],
  // The product API's refusals, and what the product page's action answers already translated.
  product: [
    "recentErrors",
    "backInStock.errors",
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
  plugins: [tailwindcss(), reactRouter(), sonnerWithoutInlineStyles, serverOnlyTextsLeftOut, precompressAssets],
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
      output: { codeSplitting: { groups: [{ name: "storefront", test: STOREFRONT_SHARED }] } },
    },
  },
});
