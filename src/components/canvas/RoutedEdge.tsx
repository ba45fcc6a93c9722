import { BaseEdge, getBezierPath } from "@xyflow/react";
import type { Edge, EdgeProps } from "@xyflow/react";
import { memo } from "react";
import type { Point } from "../../engine/graph/geometry.ts";
import { anchorRoute, roundedPath } from "../../engine/graph/geometry.ts";

const DETOUR_HIT_WIDTH = 12;

/** An access edge: `route` is set when the default curve would pass under another step. */
export type RoutedFlowEdge = Edge<{ bundle: boolean; route?: readonly Point[] }, "routed">;

/**
 * An edge drawn along its detour (rounded corners) when it has one, else React Flow's default
 * bezier. The detour's ends snap to the handles React Flow measured.
 */
export const RoutedEdge = memo(function RoutedEdge(props: EdgeProps<RoutedFlowEdge>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition } = props;
  const route = props.data?.route;
  const path = route
    ? roundedPath(anchorRoute(route, { x: sourceX, y: sourceY }, { x: targetX, y: targetY }))
    : getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition })[0];
  return (
    <BaseEdge
      id={props.id}
      path={path}
      markerStart={props.markerStart}
      markerEnd={props.markerEnd}
      style={props.style}
      // Detours run in lanes a few pixels apart: a narrower hit area keeps a click on one lane
      // from landing on the next.
      interactionWidth={route ? DETOUR_HIT_WIDTH : props.interactionWidth}
    />
  );
});
