/**
 * A Hugging Face token, kept like a worker key: attached only to requests for the Hub's own origins
 * (the dataset API and the rows API), never to any other URL, and never followed through a redirect
 * (a redirect answered to a tokened request is refused, so the token cannot be forwarded).
 */

/** The origins of `urls` (bases of the Hub's APIs); bad URLs are left out. */
function originsOf(urls: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const u of urls) {
    try {
      out.add(new URL(u).origin);
    } catch {
      // not a URL: no origin to trust
    }
  }
  return out;
}

/**
 * `fetch` that sends `Authorization: Bearer <token>` to the Hub's origins only. Without a token it
 * is `fetch` itself. A tokened request does not follow redirects: the Fetch standard drops the
 * header on a cross-origin redirect, but a same-origin hop to another path is not ours to allow.
 */
export function hubFetch(
  fetchFn: typeof fetch,
  token: string | null | undefined,
  hubBases: readonly string[],
): typeof fetch {
  const trimmed = token?.trim();
  if (!trimmed) return fetchFn;
  const origins = originsOf(hubBases);
  return (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return fetchFn(input, init);
    }
    if (!origins.has(origin)) return fetchFn(input, init);
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${trimmed}`);
    return fetchFn(input, { ...init, headers, redirect: "error" });
  };
}
