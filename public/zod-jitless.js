// zod reads its global config from globalThis.__zod_globalConfig. Set here, in a classic script
// that runs before any module chunk, so no chunk can parse a schema (and probe `new Function`,
// which the Content-Security-Policy refuses) before src/zod-config.ts has run.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, {
  jitless: true,
});
