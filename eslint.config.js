// ESLint flat config: the recommended rules for the page's code (web/: ES modules, browser and
// worker globals) and the build's Node programs (tools/build/*.mjs: Node globals).  Run by
// `python3 build.py lint` (= `npx eslint web tools/build`).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["web/pyodide/**"] },
  js.configs.recommended,
  {
    files: ["web/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker },
    },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["tools/build/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
