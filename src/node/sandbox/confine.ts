/**
 * Whether this machine can confine a program below the interpreter, and how (docs/security.md,
 * "Code answers: the threat model"). On Linux the code sandbox runs Debian's `python3` inside
 * bubblewrap: new user, pid, network, IPC, UTS and cgroup namespaces, no capabilities, a read-only
 * root that holds only the interpreter and its libraries, a fresh /proc of its own pid namespace,
 * no environment, and the seccomp filter of seccomp.ts. Elsewhere (macOS, Windows, a Linux without
 * bubblewrap or user namespaces) there is no confinement, and code scoring refuses to run unless
 * the user passes UNCONFINED_FLAG, which accepts the risk.
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { SECCOMP_ARCHES, seccompBytes } from "./seccomp.ts";

/** The one flag that runs code answers without confinement. */
export const UNCONFINED_FLAG = "--unconfined-code";

/** The confined runtime: bubblewrap, the interpreter and what it may read. */
export interface Confinement {
  bwrap: string;
  python: string;
  /** `3.11.7`: the Python that scores, shown to the user. */
  version: string;
  /** Host paths bound read-only at the same place (the interpreter, its stdlib, its libraries). */
  binds: string[];
  /** Links recreated inside (`/lib64` -> `usr/lib64` on a merged-/usr system). */
  links: [target: string, path: string][];
}

export type ConfinementCheck =
  { ok: true; confinement: Confinement } | { ok: false; reason: string };

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "/usr/bin:/bin").split(delimiter)) {
    const file = join(dir, name);
    if (existsSync(file)) return realpathSync(file);
  }
  return null;
}

/** The fd bubblewrap reads the seccomp filter from (the sandbox process's stdio index). */
export const SECCOMP_FD = 4;

/** bubblewrap's arguments up to (not including) the command. */
export function bwrapArgs(c: Confinement): string[] {
  const args = [
    "--unshare-all",
    "--die-with-parent",
    // the zygote is the namespace's init: no bubblewrap process beside it for an answer to reach,
    // and the kernel takes every answer's process down with it
    "--as-pid-1",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--clearenv",
    "--uid",
    "65534",
    "--gid",
    "65534",
  ];
  for (const path of c.binds) args.push("--ro-bind", path, path);
  for (const [target, path] of c.links) args.push("--symlink", target, path);
  args.push("--proc", "/proc", "--dev-bind", "/dev/null", "/dev/null");
  args.push("--dev-bind", "/dev/urandom", "/dev/urandom");
  for (const [i, name] of ["stdin", "stdout", "stderr"].entries())
    args.push("--symlink", `/proc/self/fd/${i}`, `/dev/${name}`);
  args.push("--dir", "/sandbox", "--chdir", "/sandbox", "--remount-ro", "/");
  args.push("--seccomp", String(SECCOMP_FD));
  return args;
}

/** The interpreter's arguments: isolated mode, no site-packages, UTF-8 whatever the locale. */
export const PYTHON_FLAGS = ["-I", "-S", "-X", "utf8"];

let checked: ConfinementCheck | null = null;

/** Finds the confinement once per process; `reason` says what is missing. */
export function detectConfinement(env: NodeJS.ProcessEnv = process.env): ConfinementCheck {
  checked ??= detect(env);
  return checked;
}

function detect(env: NodeJS.ProcessEnv): ConfinementCheck {
  if (platform() !== "linux")
    return {
      ok: false,
      reason: `${platform() === "darwin" ? "macOS" : platform()} has no confinement the code sandbox can use yet (it uses bubblewrap, on Linux)`,
    };
  if (!(SECCOMP_ARCHES as readonly string[]).includes(arch()))
    return {
      ok: false,
      reason: `the sandbox's seccomp filter has no system-call table for ${arch()}`,
    };
  const bwrap = onPath("bwrap", env);
  if (!bwrap) return { ok: false, reason: "bubblewrap (bwrap) is not installed" };
  // The system's python3 first: a version manager's shim is a script, and its tree lives in a home.
  const candidate = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : onPath("python3", env);
  if (!candidate) return { ok: false, reason: "python3 is not installed" };
  const info = spawnSync(
    candidate,
    [
      ...PYTHON_FLAGS,
      "-c",
      "import os, sys, sysconfig\nprint(os.path.realpath(sys.executable)); print(sys.version.split()[0]); print(os.path.dirname(os.__file__)); print(sysconfig.get_config_var('MULTIARCH') or '')",
    ],
    { encoding: "utf8", env: {}, timeout: 20_000 },
  );
  const [python, version, stdlib, multiarch] = info.stdout.trim().split("\n");
  if (info.status !== 0 || !python || !version || !stdlib)
    return { ok: false, reason: `python3 did not start: ${info.stderr.trim().slice(0, 200)}` };
  const binds = [python, stdlib];
  const links: [string, string][] = [];
  const libs = [`/usr/lib/${multiarch}`, `/lib/${multiarch}`, "/usr/lib64", "/lib64", "/lib"];
  for (const dir of multiarch ? libs : libs.slice(2)) {
    if (!existsSync(dir)) continue;
    if (lstatSync(dir).isSymbolicLink()) links.push([readlinkSync(dir), dir]);
    // reached through a linked parent (/lib/x86_64-linux-gnu under /lib -> usr/lib): the link does it
    else if (realpathSync(dir) !== dir) continue;
    else binds.push(dir);
  }
  const confinement: Confinement = { bwrap, python, version, binds, links };
  // A trial run: bubblewrap may be installed where user namespaces are not allowed.
  const fd = openSync(seccompFile(), "r");
  const trial = (() => {
    try {
      return spawnSync(
        bwrap,
        [...bwrapArgs(confinement), python, ...PYTHON_FLAGS, "-c", "print('ok')"],
        {
          encoding: "utf8",
          env: {},
          timeout: 20_000,
          stdio: ["ignore", "pipe", "pipe", "ignore", fd],
        },
      );
    } finally {
      closeSync(fd);
    }
  })();
  if (trial.status !== 0 && /seccomp/.test(trial.stderr ?? ""))
    return { ok: false, reason: `bubblewrap refused the seccomp filter: ${trial.stderr.trim()}` };
  if (trial.stdout?.trim() !== "ok")
    return {
      ok: false,
      reason: `bubblewrap could not start a sandbox here: ${(trial.stderr ?? "").trim().slice(0, 300)}`,
    };
  return { ok: true, confinement };
}

let filterFile: string | null = null;
/**
 * The filter, written once to a private file: every sandbox process gets its own descriptor of
 * it (bubblewrap reads a descriptor to its end), opened just before the spawn.
 */
export function seccompFile(): string {
  if (filterFile) return filterFile;
  const dir = mkdtempSync(join(tmpdir(), "conductor-seccomp-"));
  const file = join(dir, "filter.bpf");
  writeFileSync(file, seccompBytes(), { mode: 0o400 });
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  filterFile = file;
  return file;
}
