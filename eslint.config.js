import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import tseslint from "typescript-eslint";

// The layers of app/ (docs/architecture.md): each may import only what is below it. Type-only imports
// are free (they leave nothing in the built code); tests may reach any layer.
const layer = (name) => `(^~/|^(\\.\\./)+|^\\./)${name}(/|$)`;
const ABOVE = {
  lib: ["http", "platform", "domain", "components", "routes", "root", "entry\\.server", "entry\\.client", "db/(?!schema$)"],
  platform: ["http", "domain", "components", "routes", "root", "db"],
  db: ["http", "domain", "components", "routes", "root"],
  domain: ["http", "components", "routes", "root"],
  http: ["components", "routes", "root"],
  components: ["http", "platform", "routes"],
};
const layerRules = Object.entries(ABOVE).map(([dir, above]) => ({
  files: [`app/${dir}/**/*.{ts,tsx}`],
  ignores: ["**/*.test.{ts,tsx}"],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      { patterns: above.map((name) => ({ regex: layer(name), allowTypeImports: true, message: `app/${dir} sits below ${name.split("/")[0]}: see docs/architecture.md` })) },
    ],
  },
}));

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", "test-results/", "playwright-report/", "tests/e2e/.data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  ...layerRules,
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: { ...importX.flatConfigs.typescript.settings, "import-x/resolver-next": [createTypeScriptImportResolver()] },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
);
