/**
 * Where the draft lives (localStorage): it is small, and a synchronous write is the one that still
 * lands when the page is leaving, so the last edit before a reload is not lost.
 */
export const DRAFT_KEY = "conductor-studio.draft";
