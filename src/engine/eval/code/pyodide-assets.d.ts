/** The virtual module from src/node/vite/pyodide-assets.ts: where the app serves Pyodide's files, and their size. */
declare module "virtual:pyodide-assets" {
  export const PYODIDE_ASSETS: {
    /** e.g. "/pyodide/" */
    base: string;
    version: string;
    files: { name: string; bytes: number }[];
    totalBytes: number;
  };
}

/** Pyodide's `pyodide.asm.mjs`, bundled into the sandbox host script (pyodide-assets.ts). */
declare module "virtual:pyodide-asm" {
  const createPyodideModule: (settings: object) => Promise<unknown>;
  export default createPyodideModule;
}
