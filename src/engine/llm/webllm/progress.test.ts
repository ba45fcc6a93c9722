import { describe, expect, it } from "vitest";
import { formatEta, parseProgress } from "./progress.ts";

// Texts as WebLLM 0.2.86 writes them (tvmjs fetchTensorCacheInternal, asyncLoadWebGPUPipelines, reload).
describe("parseProgress", () => {
  it("reads a download report: megabytes, total, percent and time left", () => {
    const p = parseProgress({
      progress: 0.25,
      timeElapsed: 60,
      text: "Fetching param cache[27/108]: 1075MB fetched. 25% completed, 60 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.",
    });
    expect(p).toMatchObject({
      phase: "downloading",
      progress: 0.25,
      loadedMB: 1075,
      totalMB: 4300,
      etaSeconds: 180,
      elapsedSeconds: 60,
    });
    expect(p.text).toBe("Downloading the model: 1,075 of 4,300 MB (25%), about 3 min left");
  });

  it("reads loading from the cache onto the GPU", () => {
    const p = parseProgress({
      progress: 0.5,
      timeElapsed: 4,
      text: "Loading model from cache[54/108]: 2150MB loaded. 50% completed, 4 secs elapsed.",
    });
    expect(p).toMatchObject({ phase: "loading", loadedMB: 2150, totalMB: 4300, etaSeconds: 4 });
    expect(p.text).toBe("Loading the model onto the GPU: 2,150 of 4,300 MB (50%), about 5 s left");
  });

  it("reads shader compilation and the finish line", () => {
    expect(
      parseProgress({
        progress: 0.25,
        timeElapsed: 3,
        text: "Loading GPU shader modules[40/160]: 25% completed, 3 secs elapsed.",
      }),
    ).toMatchObject({
      phase: "compiling",
      etaSeconds: 9,
      text: "Preparing the GPU shaders: 25%, about 10 s left",
    });
    expect(
      parseProgress({ progress: 1, timeElapsed: 95.2, text: "Finish loading on WebGPU - intel" }),
    ).toMatchObject({
      phase: "ready",
      progress: 1,
      text: "Ready on WebGPU - intel",
    });
  });

  it("uses the expected size before WebLLM reports one, and gives no time left too early", () => {
    expect(
      parseProgress({ progress: 0, timeElapsed: 0, text: "Start to fetch params" }, 4300),
    ).toMatchObject({
      phase: "downloading",
      totalMB: 4300,
      text: "Starting the download (about 4,300 MB)",
    });
    const early = parseProgress(
      {
        progress: 0,
        timeElapsed: 1,
        text: "Fetching param cache[0/108]: 0MB fetched. 0% completed, 1 secs elapsed.",
      },
      4800,
    );
    expect(early).toMatchObject({ totalMB: 4800, loadedMB: 0 });
    expect(early.etaSeconds).toBeUndefined();
  });

  it("passes unknown texts through as a starting phase and clamps odd numbers", () => {
    expect(
      parseProgress({ progress: Number.NaN, timeElapsed: -1, text: "Something new" }),
    ).toMatchObject({
      phase: "starting",
      progress: 0,
      elapsedSeconds: 0,
      text: "Something new",
    });
    expect(parseProgress({ progress: 1.7, timeElapsed: 0, text: "" }).progress).toBe(1);
  });
});

describe("formatEta", () => {
  it.each([
    [3, "about 5 s"],
    [42, "about 40 s"],
    [180, "about 3 min"],
    [3900, "about 1 h 5 min"],
  ])("%d s -> %s", (s, text) => {
    expect(formatEta(s)).toBe(text);
  });
});
