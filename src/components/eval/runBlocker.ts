/** Why Run is not possible yet, or null when it is: the first missing step, in order. */
export function runBlocker(
  hasTable: boolean,
  workers: number,
  strategies: number,
  /** Why the spending cap cannot be read, if it cannot: Run waits for a cap it understands. */
  capProblem: string | null = null,
): { text: string; settings?: boolean } | null {
  if (!hasTable) return { text: "Load a question set first." };
  if (workers === 0) return { text: "Add workers in Settings first.", settings: true };
  if (strategies === 0) return { text: "Pick at least one strategy." };
  if (capProblem) return { text: `Fix the spending cap: ${capProblem}` };
  return null;
}
