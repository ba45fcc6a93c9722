import { useStudio } from "../../state/slices/store.ts";

/**
 * Shown where a held key (or header value) was entered for another origin than its owner points at
 * now: it is not sent there until the user confirms it applies, enters a new one, or forgets it.
 */
export function KeyMovedNote({
  id,
  from,
  to,
  what = "key",
}: {
  id: string;
  from: string | null;
  to: string | null;
  what?: string;
}) {
  const st = useStudio.getState;
  return (
    <span className="key-moved warning small" role="alert" data-testid="key-moved">
      The {what} you entered {from ? `for ${from}` : "before the base URL was set"} is not sent to{" "}
      {to ?? "this endpoint until its base URL is set"}.{" "}
      {to && (
        <button type="button" data-testid="confirm-key" onClick={() => st().confirmKey(id)}>
          Use it for {to}
        </button>
      )}{" "}
      <button type="button" data-testid="forget-moved-key" onClick={() => st().setKey(id, "")}>
        Forget it
      </button>
    </span>
  );
}
