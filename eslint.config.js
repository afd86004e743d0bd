// ESLint flat config for the page's code (web/): the recommended rules, ES modules, browser and
// worker globals.  Run with `npm run lint` (= `npx eslint web`).
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
];
