import type { ToothZone } from '@odontia/shared/enums';
import {
  type ChartRowKey,
  chartRows,
  isUpper,
  type Shape,
  type Side,
  sidePolygons,
  type ToothState,
  toothShapes,
  zoneAtSide,
} from '@odontia/shared/odontogram';
import { type KeyboardEvent, type MouseEvent, memo, useMemo } from 'react';

/**
 * The chart in FDI layout, drawn as dentists draw it on paper: each tooth a square split into four
 * trapezoids around the occlusal centre, buccal on the outer side of the arch, mesial toward the
 * midline, the number on the outer side. One SVG; each tooth a memoised group, so a mark redraws
 * one tooth. Clicks and keys are handled once on the SVG (event delegation).
 */

export const cell = 44;
const glyphScale = 0.9;
const glyph = 40 * glyphScale;
const labelHeight = 14;
export const rowHeight = glyph + labelHeight + 10;
const midlineGap = 16;
export const chartWidth = 16 * cell + midlineGap;

const sides: Side[] = ['top', 'bottom', 'left', 'right', 'center'];

function ShapeView({ shape }: { shape: Shape }) {
  switch (shape.type) {
    case 'polygon':
      return (
        <polygon
          points={shape.points}
          fill={shape.fill}
          fillOpacity={shape.fillOpacity}
          stroke={shape.stroke}
          strokeWidth={shape.width}
        />
      );
    case 'line':
      return (
        <line
          x1={shape.x1}
          y1={shape.y1}
          x2={shape.x2}
          y2={shape.y2}
          stroke={shape.stroke}
          strokeWidth={shape.width}
          strokeLinecap="round"
          strokeDasharray={shape.dash}
        />
      );
    case 'polyline':
      return (
        <polyline
          points={shape.points}
          fill="none"
          stroke={shape.stroke}
          strokeWidth={shape.width}
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      );
    case 'circle':
      return (
        <circle
          cx={shape.cx}
          cy={shape.cy}
          r={shape.r}
          fill={shape.fill ?? 'none'}
          stroke={shape.stroke}
          strokeWidth={shape.width}
          strokeDasharray={shape.dash}
        />
      );
  }
}

/** One tooth's glyph (viewBox 0 0 40 40): the five zones and the marks. Used by the chart, the zoomed editor and the legend. */
export const ToothGlyph = memo(function ToothGlyph({
  tooth,
  state,
  focusZone,
  zoneTestIds = false,
}: {
  tooth: number;
  state: ToothState | undefined;
  focusZone?: ToothZone | null | undefined;
  zoneTestIds?: boolean;
}) {
  const shapes = useMemo(() => toothShapes(state, tooth), [state, tooth]);
  return (
    <>
      {sides.map((side) => {
        const zone = zoneAtSide(tooth, side);
        const status = state?.zones[zone]?.status;
        return (
          <polygon
            key={side}
            points={sidePolygons[side]}
            className={`odo-zone${focusZone === zone ? ' odo-zone-focus' : ''}`}
            data-zone={zone}
            data-status={status}
            data-testid={zoneTestIds ? `zone-${tooth}-${zone}` : undefined}
          />
        );
      })}
      <g className="odo-marks">
        {shapes.map((shape, index) => (
          // Shapes of one state never reorder: the index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <ShapeView key={index} shape={shape} />
        ))}
      </g>
    </>
  );
});

interface ToothProps {
  tooth: number;
  state: ToothState | undefined;
  x: number;
  y: number;
  focused: boolean;
  focusZone: ToothZone | null;
  tabbable: boolean;
  label: string;
}

const Tooth = memo(function Tooth({ tooth, state, x, y, focused, focusZone, tabbable, label }: ToothProps) {
  const upper = isUpper(tooth);
  const glyphY = upper ? labelHeight : 0;
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it acts as one.
    <g
      transform={`translate(${x} ${y})`}
      className={`odo-tooth${focused ? ' odo-tooth-focus' : ''}`}
      data-tooth={tooth}
      data-testid={`tooth-${tooth}`}
      data-piece={state?.piece?.status}
      role="button"
      tabIndex={tabbable ? 0 : -1}
      aria-label={label}
      aria-pressed={focused}
    >
      <text
        x={cell / 2}
        y={upper ? labelHeight - 3 : glyph + labelHeight - 2}
        textAnchor="middle"
        className="odo-number"
      >
        {tooth}
      </text>
      <rect
        x={(cell - glyph) / 2 - 2}
        y={glyphY - 2}
        width={glyph + 4}
        height={glyph + 4}
        rx={4}
        className="odo-focus-ring"
      />
      <g transform={`translate(${(cell - glyph) / 2} ${glyphY}) scale(${glyphScale})`}>
        <ToothGlyph tooth={tooth} state={state} focusZone={focused ? focusZone : null} zoneTestIds />
      </g>
    </g>
  );
});

export interface OdontogramChartProps {
  rows: ChartRowKey[];
  teeth: ReadonlyMap<number, ToothState>;
  focusedTooth: number;
  focusZone: ToothZone | null;
  /** A zone (or, for a click on the number, null) of a tooth was clicked. */
  onPick: (tooth: number, zone: ToothZone | null) => void;
  onKeyDown: (event: KeyboardEvent<SVGSVGElement>) => void;
  /** A tooth got the focus (Tab, or a click). */
  onFocusTooth: (tooth: number) => void;
  toothLabel: (tooth: number, state: ToothState | undefined) => string;
  title: string;
  /** While the chart shows a past date it cannot be edited. */
  readOnly: boolean;
}

export function OdontogramChart({
  rows,
  teeth,
  focusedTooth,
  focusZone,
  onPick,
  onKeyDown,
  onFocusTooth,
  toothLabel,
  title,
  readOnly,
}: OdontogramChartProps) {
  const height = rows.length * rowHeight + (rows.length > 2 ? 12 : 0);
  const onClick = (event: MouseEvent<SVGSVGElement>) => {
    const target = event.target as Element;
    const toothElement = target.closest('[data-tooth]');
    if (!toothElement) return;
    const zone = target.getAttribute('data-zone') as ToothZone | null;
    onPick(Number(toothElement.getAttribute('data-tooth')), zone);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG cannot be a fieldset; it groups the teeth, whose clicks and keys it handles.
    <svg
      className={`odo-chart${readOnly ? ' odo-readonly' : ''}`}
      viewBox={`0 0 ${chartWidth} ${height}`}
      role="group"
      aria-label={title}
      data-testid="odontogram-chart"
      onClick={onClick}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        const tooth = (event.target as Element).closest?.('[data-tooth]')?.getAttribute('data-tooth');
        if (tooth) onFocusTooth(Number(tooth));
      }}
    >
      <line x1={chartWidth / 2} y1={0} x2={chartWidth / 2} y2={height} className="odo-midline" />
      {rows.map((rowKey, rowIndex) => {
        const row = chartRows[rowKey];
        const offset = ((16 - row.length) / 2) * cell;
        // The primary rows sit between the permanent arches; a little room between the arches.
        const y = rowIndex * rowHeight + (rows.length > 2 && rowIndex >= rows.length / 2 ? 12 : 0);
        return (
          <g key={rowKey} data-row={rowKey}>
            {row.map((tooth, index) => {
              const x = offset + index * cell + (index >= row.length / 2 ? midlineGap : 0);
              const state = teeth.get(tooth);
              const focused = tooth === focusedTooth;
              return (
                <Tooth
                  key={tooth}
                  tooth={tooth}
                  state={state}
                  x={x}
                  y={y}
                  focused={focused}
                  focusZone={focused ? focusZone : null}
                  tabbable={focused}
                  label={toothLabel(tooth, state)}
                />
              );
            })}
          </g>
        );
      })}
    </svg>
  );
}
