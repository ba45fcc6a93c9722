// Test support for the run tests. Not a test file itself.

/** Test helper: reads a run (or any event stream) to its end and returns everything it yielded. */
export async function drain<T>(gen: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const e of gen) events.push(e);
  return events;
}
