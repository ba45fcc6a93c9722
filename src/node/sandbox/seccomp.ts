/**
 * The seccomp filter of the Linux code sandbox, as the classic BPF program bubblewrap's `--seccomp
 * FD` loads (an array of `struct sock_filter`, 8 bytes each). It is a deny list on top of the
 * namespaces (confine.ts): the namespaces already hide the network, the other processes and the
 * host's files; the filter takes away the kernel interfaces a native program could use to get out
 * of them or to hold memory outside its own address-space limit.
 *
 * - Another architecture's system-call numbers (a 32-bit or x32 call from a 64-bit process) kill
 *   the process: a deny list by number only holds for the architecture it was written for.
 * - An answer's process (forked by the sandbox's trusted zygote, native-main.ts) stacks its own
 *   filter (childProgram): no new process, no signal, limit or priority aimed at another process,
 *   no IPC object that would outlive it.
 * - No socket of any kind, no debugging (ptrace, process_vm_*, pidfd_getfd), no mount or new
 *   namespace, no kernel keyring, BPF, perf, io_uring or userfaultfd, no memfd (memory outside
 *   RLIMIT_AS), no terminal input injection (TIOCSTI).
 */

/** `uname -m` values this filter has system-call numbers for. */
export const SECCOMP_ARCHES = ["x64"] as const;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_SYSCALL_BIT = 0x40000000;
const CLONE_THREAD = 0x10000;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const EPERM = 1;
const ENOSYS = 38;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;

// classic BPF opcodes
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

// struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6] (little-endian: low word first)
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const ARG1 = 24;

/** x86_64 numbers of the calls refused with EPERM. */
const DENIED_X64: Record<string, number> = {
  socket: 41,
  connect: 42,
  socketpair: 53,
  ptrace: 101,
  syslog: 103,
  personality: 135,
  pivot_root: 155,
  chroot: 161,
  acct: 163,
  mount: 165,
  umount2: 166,
  swapon: 167,
  swapoff: 168,
  reboot: 169,
  init_module: 175,
  delete_module: 176,
  quotactl: 179,
  lookup_dcookie: 212,
  kexec_load: 246,
  add_key: 248,
  request_key: 249,
  keyctl: 250,
  unshare: 272,
  perf_event_open: 298,
  name_to_handle_at: 303,
  open_by_handle_at: 304,
  setns: 308,
  process_vm_readv: 310,
  process_vm_writev: 311,
  kcmp: 312,
  finit_module: 313,
  memfd_create: 319,
  kexec_file_load: 320,
  bpf: 321,
  userfaultfd: 323,
  pidfd_send_signal: 424,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  pidfd_getfd: 438,
  mount_setattr: 442,
  memfd_secret: 447,
};
const FORK_X64 = { fork: 57, vfork: 58 };
const CLONE_X64 = 56;
const CLONE3_X64 = 435;
const IOCTL_X64 = 16;

type Insn = [code: number, jt: number, jf: number, k: number];

/** The checks every filter starts with: this architecture's numbers only. */
const ARCH_CHECK: Insn[] = [
  [LD_W_ABS, 0, 0, ARCH],
  [JEQ_K, 1, 0, AUDIT_ARCH_X86_64],
  [RET_K, 0, 0, RET_KILL_PROCESS],
  [LD_W_ABS, 0, 0, NR],
  [JGE_K, 0, 1, X32_SYSCALL_BIT],
  [RET_K, 0, 0, RET_KILL_PROCESS],
];

/**
 * The sandbox's filter (bubblewrap loads it for the zygote and everything it forks). The zygote
 * is trusted and forks, so process creation is refused by each answer's own filter (childProgram).
 */
export function seccompProgram(): Insn[] {
  const p: Insn[] = [
    ...ARCH_CHECK,
    // ioctl: no injected terminal input, whatever the descriptor
    [JEQ_K, 0, 5, IOCTL_X64],
    [LD_W_ABS, 0, 0, ARG1],
    [JEQ_K, 1, 0, TIOCSTI],
    [JEQ_K, 0, 1, TIOCLINUX],
    [RET_K, 0, 0, retErrno(EPERM)],
    [RET_K, 0, 0, RET_ALLOW],
  ];
  for (const nr of Object.values(DENIED_X64))
    p.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, retErrno(EPERM)]);
  p.push([RET_K, 0, 0, RET_ALLOW]);
  return p;
}

/** Stands for the answer's pid in childProgram until the zygote writes the real one in. */
export const PID_SLOT = 0x7ffffff0;

/**
 * Calls that reach another process by pid: allowed on the caller itself only (pid 0 is itself
 * for prlimit64, its process group for kill, so it is refused there).
 */
const OWN_PID_X64: Record<string, { nr: number; zeroIsSelf: boolean }> = {
  kill: { nr: 62, zeroIsSelf: false },
  tkill: { nr: 200, zeroIsSelf: false },
  tgkill: { nr: 234, zeroIsSelf: false },
  rt_sigqueueinfo: { nr: 129, zeroIsSelf: false },
  rt_tgsigqueueinfo: { nr: 297, zeroIsSelf: false },
  prlimit64: { nr: 302, zeroIsSelf: true },
};

/**
 * Refused to an answer: what would touch the zygote, the sandbox's init or the next answer
 * (renice, reschedule, migrate a process of the same uid; SysV and POSIX IPC objects, which
 * outlive the process in the sandbox's IPC namespace).
 */
const CHILD_DENIED_X64: Record<string, number> = {
  shmget: 29,
  shmat: 30,
  shmctl: 31,
  semget: 64,
  semop: 65,
  semctl: 66,
  shmdt: 67,
  msgget: 68,
  msgsnd: 69,
  msgrcv: 70,
  msgctl: 71,
  setpriority: 141,
  sched_setparam: 142,
  sched_setscheduler: 144,
  sched_setaffinity: 203,
  semtimedop: 220,
  mq_open: 240,
  mq_unlink: 241,
  mq_timedsend: 242,
  mq_timedreceive: 243,
  mq_notify: 244,
  mq_getsetattr: 245,
  ioprio_set: 251,
  migrate_pages: 256,
  move_pages: 279,
  sched_setattr: 314,
  pidfd_open: 434,
  process_madvise: 440,
};

/**
 * The filter each answer's process loads right after the zygote forks it, on top of
 * seccompProgram: no new process (threads stay: Python's `threading` is allowed, as competitive
 * programs use it for a bigger stack; clone3, whose flags a filter cannot read, fails with ENOSYS,
 * so the C library falls back to clone), no signal or resource limit aimed at another process
 * (PID_SLOT is the answer's own pid), nothing of CHILD_DENIED_X64.
 */
export function childProgram(): Insn[] {
  const p: Insn[] = [
    ...ARCH_CHECK,
    [JEQ_K, 0, 4, CLONE_X64],
    [LD_W_ABS, 0, 0, ARG0],
    [JSET_K, 0, 1, CLONE_THREAD],
    [RET_K, 0, 0, RET_ALLOW],
    [RET_K, 0, 0, retErrno(ENOSYS)],
  ];
  for (const nr of [...Object.values(FORK_X64), CLONE3_X64])
    p.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, retErrno(ENOSYS)]);
  for (const { nr, zeroIsSelf } of Object.values(OWN_PID_X64)) {
    // the kernel reads a pid_t, the low word of the argument
    p.push([JEQ_K, 0, zeroIsSelf ? 5 : 4, nr], [LD_W_ABS, 0, 0, ARG0]);
    if (zeroIsSelf) p.push([JEQ_K, 2, 0, 0]);
    p.push([JEQ_K, 1, 0, PID_SLOT], [RET_K, 0, 0, retErrno(EPERM)], [RET_K, 0, 0, RET_ALLOW]);
  }
  for (const nr of Object.values(CHILD_DENIED_X64))
    p.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, retErrno(EPERM)]);
  p.push([RET_K, 0, 0, RET_ALLOW]);
  return p;
}

/** childProgram as bytes, and the byte offsets where the zygote writes the answer's pid. */
export function childFilter(): { bytes: Uint8Array; pidOffsets: number[] } {
  const insns = childProgram();
  const pidOffsets = insns.flatMap(([, , , k], i) => (k === PID_SLOT ? [i * 8 + 4] : []));
  return { bytes: seccompBytes(insns), pidOffsets };
}

/** The filter as bytes for bubblewrap's `--seccomp FD` (host byte order, little-endian). */
export function seccompBytes(insns: Insn[] = seccompProgram()): Uint8Array {
  const bytes = new Uint8Array(insns.length * 8);
  const view = new DataView(bytes.buffer);
  insns.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return bytes;
}
