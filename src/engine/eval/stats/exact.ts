/** ln(n!) by summing logs: exact enough for the counts a question set has (thousands). */
function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

/**
 * The exact McNemar test: the two-sided binomial p-value of the discordant questions, `b` that
 * only the first strategy got right and `c` that only the second did, under p = 1/2:
 * min(1, 2 * P(X <= min(b, c))) for X ~ Binomial(b + c, 1/2). 1 when nothing is discordant.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  const lnN = logFactorial(n);
  let tail = 0;
  for (let i = 0; i <= k; i++)
    tail += Math.exp(lnN - logFactorial(i) - logFactorial(n - i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/**
 * The unbiased pass@k estimator (Chen et al. 2021): with n samples of which c are right, the chance
 * that k drawn without replacement include a right one, 1 - C(n-c, k) / C(n, k), computed as a
 * product to stay exact for large n. Requires k <= n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n || k < 1) throw new RangeError(`pass@k needs 1 <= k <= n (k = ${k}, n = ${n}).`);
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/**
 * maj@k for one question: the answer given most often among its samples (by extracted answer, its
 * first occurrence breaking ties) decides; right when that answer's first sample was right.
 */
export function majorityCorrect(
  samples: readonly { answer: string | null; correct: boolean }[],
): boolean | null {
  if (samples.length === 0) return null;
  const votes = new Map<string, { n: number; correct: boolean }>();
  for (const s of samples) {
    const key = (s.answer ?? "").trim();
    const v = votes.get(key);
    votes.set(key, { n: (v?.n ?? 0) + 1, correct: v?.correct ?? s.correct });
  }
  let best: { n: number; correct: boolean } | null = null;
  for (const v of votes.values()) if (!best || v.n > best.n) best = v;
  return best!.correct;
}
