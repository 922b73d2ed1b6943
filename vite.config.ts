import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

// Sonner injects its stylesheet as a <style> element at run time, which our Content-Security-Policy
// (style-src 'self') forbids. Its CSS is bundled with ours instead (app.css), so the injection is dropped.
const sonnerWithoutInlineStyles: Plugin = {
  name: "sonner-without-inline-styles",
  transform(code, id) {
    if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
    return code.replace("function __insertCSS(code) {", "function __insertCSS(code) {\n  return;");
  },
};

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), sonnerWithoutInlineStyles],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    // Small, fingerprinted chunks; the server sends them with a one-year immutable cache.
    assetsInlineLimit: 0,
  },
});
