import type { ToothStatus, ToothZone } from '@odontia/shared/enums';
import type { Dentition, ToothState } from '@odontia/shared/odontogram';
import type { Patient } from '@odontia/shared/schemas/patients';

/**
 * The chart after marks the server has not confirmed yet (the optimistic update), with the
 * rules of the server's chart: healthy clears; a healthy piece clears the tooth's zones. Teeth
 * not touched keep their object, so their memoised drawing is not redone.
 */
export function applyMarks(
  teeth: readonly ToothState[],
  marks: readonly { tooth: number; zone?: ToothZone | null | undefined; status: ToothStatus }[],
  chartedAt: string,
): ToothState[] {
  const byTooth = new Map(teeth.map((state) => [state.tooth, state]));
  for (const [index, mark] of marks.entries()) {
    const current = byTooth.get(mark.tooth) ?? { tooth: mark.tooth, piece: null, zones: {} };
    const chartMark = { status: mark.status, entryId: `pending-${index}`, chartedAt };
    const zone = mark.zone ?? null;
    let next: ToothState;
    if (zone === null) {
      next =
        mark.status === 'healthy' ? { tooth: mark.tooth, piece: null, zones: {} } : { ...current, piece: chartMark };
    } else {
      const zones = { ...current.zones };
      if (mark.status === 'healthy') delete zones[zone];
      else zones[zone] = chartMark;
      next = { ...current, zones };
    }
    byTooth.set(mark.tooth, next);
  }
  return [...byTooth.values()]
    .filter((state) => state.piece || Object.keys(state.zones).length > 0)
    .sort((a, b) => a.tooth - b.tooth);
}

/** The tooth reached from `tooth` by an arrow key, on the rows shown (top to bottom). */
export function neighbourTooth(
  rows: readonly (readonly number[])[],
  tooth: number,
  key: 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End',
): number {
  const rowIndex = rows.findIndex((row) => row.includes(tooth));
  const row = rows[rowIndex];
  if (!row) return rows[0]?.[0] ?? tooth;
  const index = row.indexOf(tooth);
  switch (key) {
    case 'ArrowLeft':
      return row[Math.max(0, index - 1)] ?? tooth;
    case 'ArrowRight':
      return row[Math.min(row.length - 1, index + 1)] ?? tooth;
    case 'Home':
      return row[0] ?? tooth;
    case 'End':
      return row[row.length - 1] ?? tooth;
    default: {
      const target = rows[key === 'ArrowUp' ? rowIndex - 1 : rowIndex + 1];
      if (!target) return tooth;
      // The same place across the chart: rows are centred, so compare positions from the middle.
      const offset = index - (row.length - 1) / 2;
      const position = Math.round(offset + (target.length - 1) / 2);
      return target[Math.min(target.length - 1, Math.max(0, position))] ?? tooth;
    }
  }
}

/** The dentition a patient's chart opens on: primary under 6, mixed under 13 or with primary teeth charted. */
export function defaultDentition(patient: Pick<Patient, 'age'>, hasPrimary: boolean): Dentition {
  if (patient.age < 6) return 'primary';
  if (hasPrimary || patient.age < 13) return 'mixed';
  return 'permanent';
}
