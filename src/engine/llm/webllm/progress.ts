/**
 * Turns WebLLM's init-progress reports into figures for a progress bar. WebLLM 0.2.86 reports in
 * phases, each running its `progress` from 0 to 1 again:
 *   "Start to fetch params"
 *   "Fetching param cache[3/108]: 412MB fetched. 9% completed, 21 secs elapsed. It can take ..."
 *   "Loading model from cache[5/108]: 180MB loaded. 4% completed, 2 secs elapsed."
 *   "Loading GPU shader modules[40/160]: 25% completed, 3 secs elapsed."
 *   "Finish loading on WebGPU - <adapter description or vendor>"
 * A model already in the cache skips the fetching phase.
 */

/** WebLLM's `InitProgressReport`. */
export interface InitProgressReportLike {
  progress: number;
  timeElapsed: number;
  text: string;
}

export type LoadPhase = "starting" | "downloading" | "loading" | "compiling" | "ready";

export interface LoadProgress {
  phase: LoadPhase;
  /** 0..1 within the phase (WebLLM restarts it for each phase). */
  progress: number;
  /** Plain words for the UI, e.g. "Downloading the model: 412 of 4,300 MB (9%), about 3 min left". */
  text: string;
  /** WebLLM's own text. */
  rawText: string;
  loadedMB?: number;
  totalMB?: number;
  etaSeconds?: number;
  elapsedSeconds: number;
}

const FETCHING =
  /^Fetching param cache\[(\d+)\/(\d+)\]: (\d+)MB fetched\. (\d+)% completed, (\d+) secs elapsed/;
const LOADING =
  /^Loading model from cache\[(\d+)\/(\d+)\]: (\d+)MB loaded\. (\d+)% completed, (\d+) secs elapsed/;
const COMPILING =
  /^Loading GPU shader modules\[(\d+)\/(\d+)\]: (\d+)% completed, (\d+) secs elapsed/;
const FINISHED = /^Finish loading on (.*)$/s;

const mb = (n: number) => Math.round(n).toLocaleString("en-US");

/** "about 40 s", "about 3 min", "about 1 h 5 min". */
export function formatEta(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds / 5) * 5)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Time left from the time so far, once there is enough progress to extrapolate from. */
function eta(progress: number, elapsed: number): number | undefined {
  if (progress < 0.01 || progress >= 1 || elapsed < 2) return undefined;
  return Math.round((elapsed * (1 - progress)) / progress);
}

/**
 * Reads one report. `expectedMB` (the catalogue's approximate size) stands in for the total until
 * WebLLM's own figures allow a better one.
 */
export function parseProgress(report: InitProgressReportLike, expectedMB?: number): LoadProgress {
  const progress = Math.min(1, Math.max(0, Number.isFinite(report.progress) ? report.progress : 0));
  const elapsedSeconds = Math.max(0, report.timeElapsed || 0);
  const base = { progress, rawText: report.text, elapsedSeconds };
  const pct = `${Math.floor(progress * 100)}%`;

  const fetching = FETCHING.exec(report.text);
  const loading = fetching ? null : LOADING.exec(report.text);
  const sized = fetching ?? loading;
  if (sized) {
    const loadedMB = Number(sized[3]);
    const totalMB = progress > 0 ? Math.round(loadedMB / progress) : expectedMB;
    const etaSeconds = eta(progress, Number(sized[5]));
    const left = etaSeconds !== undefined ? `, ${formatEta(etaSeconds)} left` : "";
    const of = totalMB ? ` of ${mb(totalMB)}` : "";
    const what = fetching ? "Downloading the model" : "Loading the model onto the GPU";
    return {
      ...base,
      phase: fetching ? "downloading" : "loading",
      text: `${what}: ${mb(loadedMB)}${of} MB (${pct})${left}`,
      loadedMB,
      ...(totalMB ? { totalMB } : {}),
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
    };
  }
  const compiling = COMPILING.exec(report.text);
  if (compiling) {
    const etaSeconds = eta(progress, Number(compiling[4]));
    const left = etaSeconds !== undefined ? `, ${formatEta(etaSeconds)} left` : "";
    return {
      ...base,
      phase: "compiling",
      text: `Preparing the GPU shaders: ${pct}${left}`,
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
    };
  }
  const finished = FINISHED.exec(report.text);
  if (finished) {
    return {
      ...base,
      progress: 1,
      phase: "ready",
      text: `Ready on ${finished[1]?.trim() ?? "WebGPU"}`,
    };
  }
  if (report.text.startsWith("Start to fetch params")) {
    const total = expectedMB ? ` (about ${mb(expectedMB)} MB)` : "";
    return {
      ...base,
      phase: "downloading",
      text: `Starting the download${total}`,
      ...(expectedMB ? { totalMB: expectedMB } : {}),
    };
  }
  return { ...base, phase: "starting", text: report.text || "Starting" };
}
