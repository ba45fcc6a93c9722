import { z } from "zod";

/**
 * zod compiles fast parsers with `new Function` where it can; the app's Content-Security-Policy
 * (csp.ts) allows no eval, so zod runs without it. Imported first by main.tsx, before any schema
 * parses anything.
 */
z.config({ jitless: true });
