/** What the two kinds of edge mean: a step chosen to be read, or every earlier step ("all"). */
export function EdgeLegend() {
  return (
    <div className="edge-legend" data-testid="edge-legend" aria-label="Edge legend">
      <span>
        <svg width="28" height="8" aria-hidden="true">
          <line x1="0" y1="4" x2="28" y2="4" className="legend-direct" />
        </svg>
        reads that step's answer
      </span>
      <span>
        <svg width="28" height="8" aria-hidden="true">
          <line x1="0" y1="4" x2="28" y2="4" className="legend-bundle" />
        </svg>
        reads all earlier steps ("all")
      </span>
    </div>
  );
}
