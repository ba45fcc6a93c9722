import type { ReactNode } from "react";
import { importPoolText } from "../../state/slices/pool.ts";
import { useStudio } from "../../state/slices/store.ts";
import { answerOffer } from "./openFile.ts";

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The bar each offer shows: a question and its answers. */
function OfferBar({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="file-offer" role="alertdialog" aria-label={label} data-testid={testId}>
      {children}
    </div>
  );
}

/** Asks before a large file opens, and offers a dropped pool file as a pool import. */
export function FileOfferBar() {
  const offer = useStudio((s) => s.fileOffer);
  const poolSize = useStudio((s) => s.pool.length);
  if (!offer) return null;
  if (offer.kind === "large")
    return (
      <OfferBar label="Open a large file" testId="file-offer">
        <span>
          {offer.file.name} is {mb(offer.file.size)}: opening it replaces the workflow on the canvas
          and may take a moment.
        </span>
        <button type="button" data-testid="confirm-large-file" onClick={() => answerOffer(true)}>
          Open it
        </button>
        <button type="button" onClick={() => answerOffer(false)}>
          Cancel
        </button>
      </OfferBar>
    );
  if (offer.kind === "draft")
    return (
      <OfferBar label="Replace your draft" testId="draft-offer">
        <span>
          Opening {offer.file.name} replaces your draft (the question
          {offer.steps ? ` and ${offer.steps} step${offer.steps === 1 ? "" : "s"}` : ""}), which has
          not been run or stored as a run. Open it anyway?
        </span>
        <button
          type="button"
          className="danger"
          data-testid="draft-offer-yes"
          onClick={() => answerOffer(true)}
        >
          Replace my draft
        </button>
        <button type="button" data-testid="draft-offer-no" onClick={() => answerOffer(false)}>
          Keep my draft
        </button>
      </OfferBar>
    );
  const importPool = () => {
    const message = importPoolText(offer.text);
    useStudio
      .getState()
      .setNotice(
        message
          ? `Could not import ${offer.file.name}: ${message}`
          : `Imported the pool from ${offer.file.name}. Add the keys in Settings.`,
      );
    answerOffer(false);
  };
  return (
    <OfferBar label="Import a pool" testId="pool-offer">
      <span>
        {offer.file.name} is a worker pool ({offer.workers} worker{offer.workers === 1 ? "" : "s"}),
        not a run.{" "}
        {poolSize > 0
          ? `Import it, replacing your ${poolSize} worker${poolSize === 1 ? "" : "s"}?`
          : "Import it as your pool?"}
      </span>
      <button
        type="button"
        className={poolSize ? "danger" : undefined}
        data-testid="pool-offer-yes"
        onClick={importPool}
      >
        Import the pool
      </button>
      <button type="button" onClick={() => answerOffer(false)}>
        Cancel
      </button>
    </OfferBar>
  );
}
