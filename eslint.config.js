import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import prettier from "eslint-config-prettier";
import globals from "globals";
import { builtinModules } from "node:module";

/** Node's built-in modules by their bare names ("fs", "path", ...), which the engine must not import. */
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith("_"));

/** What no file in src/engine imports, tests included: the UI and its libraries. */
const ENGINE_NO_UI = [
  {
    group: ["react", "react-dom", "react/*", "react-dom/*"],
    message: "src/engine stays free of React.",
  },
  { group: ["zustand", "zustand/*"], message: "src/engine stays free of zustand." },
  { group: ["@xyflow/*"], message: "src/engine stays free of React Flow." },
  { group: ["**/components/**", "**/state/**"], message: "src/engine must not import UI code." },
];

export default tseslint.config(
  {
    ignores: [
      "dist",
      "node_modules",
      "test-results",
      "playwright-report",
      "bin",
      ".scratch",
      "public",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["eslint.config.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["src/components/**/*.tsx", "src/components/**/*.ts", "src/state/**/*.ts", "src/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    // The engine is plain TypeScript shared by the UI, the CLI and the tests.
    files: ["src/engine/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-imports": [
        "error",
        {
          patterns: ENGINE_NO_UI,
        },
      ],
    },
  },
  {
    // The engine runs in the browser, in Node and in workers alike: platform code lives in
    // adapters outside it (src/node for Node and Vite, src/test-support for test fakes).
    files: ["src/engine/**/*.ts"],
    ignores: ["src/engine/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...ENGINE_NO_UI,
            {
              group: ["node:*", ...NODE_BUILTINS],
              message: "src/engine is platform-neutral: Node code goes in an adapter in src/node.",
            },
            {
              group: ["vite", "vite/*", "vitest", "vitest/*", "@vitest/*"],
              message: "src/engine is platform-neutral: build and test tools stay out of it.",
            },
            {
              group: ["**/node/**", "**/test-support/**", "**/cli/**"],
              message: "src/engine must not import its adapters, test fakes or the CLI.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/unbound-method": "off" },
  },
  prettier,
);
