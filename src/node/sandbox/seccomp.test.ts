// The answer's own seccomp filter, read back by a classic-BPF evaluator of the few opcodes it
// uses: its jumps land where they should, whatever the kernel would decide for these calls.
import { describe, expect, it } from "vitest";
import { PID_SLOT, childFilter, childProgram, seccompProgram } from "./seccomp.ts";

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const KILL = 0x80000000;

/** Runs a filter on one call (x86_64, 32-bit argument words: all that these rules read). */
function evaluate(prog: number[][], nr: number, args: number[] = [], arch = 0xc000003e): number {
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const [code, jt = 0, jf = 0, k = 0] = prog[pc] ?? [];
    if (code === 0x20) acc = k === 0 ? nr : k === 4 ? arch : (args[(k - 16) / 8] ?? 0);
    else if (code === 0x06) return k >>> 0;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x45) pc += (acc & k) !== 0 ? jt : jf;
    else throw new Error(`opcode ${code}`);
  }
  throw new Error("fell off the end");
}

const ME = 7;
const child = childProgram().map(([c, jt, jf, k]) => [c, jt, jf, k === PID_SLOT ? ME : k]);

describe("the answer's seccomp filter", () => {
  it("lets a process signal and limit itself only", () => {
    expect(evaluate(child, 62, [ME, 9])).toBe(ALLOW); // kill(self)
    expect(evaluate(child, 62, [1, 9])).toBe(EPERM); // kill(the zygote)
    expect(evaluate(child, 62, [0, 9])).toBe(EPERM); // kill(its process group)
    expect(evaluate(child, 62, [-1 >>> 0, 9])).toBe(EPERM); // kill(everyone)
    expect(evaluate(child, 234, [ME, 8, 6])).toBe(ALLOW); // tgkill in itself (abort)
    expect(evaluate(child, 234, [2, 2, 9])).toBe(EPERM);
    expect(evaluate(child, 200, [3, 9])).toBe(EPERM); // tkill
    expect(evaluate(child, 302, [0, 9])).toBe(ALLOW); // prlimit64(0): its own limits
    expect(evaluate(child, 302, [ME, 9])).toBe(ALLOW);
    expect(evaluate(child, 302, [1, 9])).toBe(EPERM);
  });

  it("refuses a new process, but not a thread, and every call on its list", () => {
    expect(evaluate(child, 56, [0x11])).toBe(ENOSYS); // clone as fork
    expect(evaluate(child, 56, [0x3d0f00])).toBe(ALLOW); // clone of a thread
    for (const nr of [57, 58, 435]) expect(evaluate(child, nr)).toBe(ENOSYS);
    for (const nr of [29, 64, 68, 141, 144, 240, 434]) expect(evaluate(child, nr)).toBe(EPERM);
    expect(evaluate(child, 0)).toBe(ALLOW); // read
    expect(evaluate(child, 62, [ME], 0x40000003)).toBe(KILL); // another architecture
  });

  it("leaves fork to the zygote under the sandbox's filter, which still refuses sockets", () => {
    const base = seccompProgram();
    expect(evaluate(base, 56, [0x11])).toBe(ALLOW);
    expect(evaluate(base, 41)).toBe(EPERM);
    expect(evaluate(base, 0x40000000 + 41)).toBe(KILL); // x32
  });

  it("marks every place the zygote writes the pid", () => {
    const { bytes, pidOffsets } = childFilter();
    const view = new DataView(bytes.buffer);
    expect(pidOffsets.length).toBe(6);
    for (const at of pidOffsets) expect(view.getUint32(at, true)).toBe(PID_SLOT);
  });
});
