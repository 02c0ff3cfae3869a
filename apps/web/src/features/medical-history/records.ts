import type { attendanceSchema, attendanceSummarySchema } from '@odontia/shared/schemas/attendances';
import type { diagnosisSchema } from '@odontia/shared/schemas/diagnoses';
import type { healthCertificateSchema } from '@odontia/shared/schemas/health-certificates';
import type { laboratorySchema } from '@odontia/shared/schemas/laboratories';
import type { prescriptionSchema } from '@odontia/shared/schemas/prescriptions';
import { ClipboardList, FileBadge, FlaskConical, type LucideIcon, Pill, Stethoscope } from 'lucide-react';
import type { z } from 'zod';

/*
 * The clinical record kinds of the medical history, each described once (its routes are declared in packages/shared/src/routes/medical-history.ts): the
 * history tab that lists it, its route's id parameter, its icon, and where its statuses are
 * translated. Types come from the shared contracts, so a field added there reaches every screen.
 * A new kind is one entry here (and its form and view); the API client, the tabs, the frames and
 * the history of changes read this table.
 */

interface RecordKindInfo {
  /** The `?tab=` of the medical history that lists the kind. */
  tab: string;
  /** The id parameter of its show and edit routes (the spec's names). */
  idParam: string;
  icon: LucideIcon;
  /** `clinical:<statusGroup>.<status>` translates a status. */
  statusGroup: string;
  /** Files can be attached to it (issue 24): its show and edit pages list them. */
  files?: true;
}

export const recordKinds = {
  diagnosis: {
    tab: 'diagnoses',
    idParam: 'id_diagnosis',
    icon: ClipboardList,
    statusGroup: 'statuses',
    files: true,
  },
  laboratory: {
    tab: 'laboratory',
    idParam: 'id_laboratory',
    icon: FlaskConical,
    statusGroup: 'laboratory.statuses',
    files: true,
  },
  attendance: {
    tab: 'attendances',
    idParam: 'id_attendance',
    icon: Stethoscope,
    statusGroup: 'statuses',
  },
  prescription: {
    tab: 'prescriptions',
    idParam: 'id_prescription',
    icon: Pill,
    statusGroup: 'statuses',
  },
  certificate: {
    tab: 'certificates',
    idParam: 'id_certificate',
    icon: FileBadge,
    statusGroup: 'statuses',
  },
} as const satisfies Record<string, RecordKindInfo>;

export type RecordKind = keyof typeof recordKinds;

/** The record each kind's show page reads (the shared contract's answer). */
export interface RecordOf {
  diagnosis: z.infer<typeof diagnosisSchema>;
  laboratory: z.infer<typeof laboratorySchema>;
  attendance: z.infer<typeof attendanceSchema>;
  prescription: z.infer<typeof prescriptionSchema>;
  certificate: z.infer<typeof healthCertificateSchema>;
}
/** A row of each kind's list (an attendance's list leaves its lines out). */
export type RowOf = Omit<RecordOf, 'attendance'> & { attendance: z.infer<typeof attendanceSummarySchema> };

/** The badge of a laboratory order's status. */
export function laboratoryStatusClass(status: RecordOf['laboratory']['status']): string {
  if (status === 'result_received') return 'text-bg-success';
  if (status === 'sample_taken') return 'text-bg-info';
  return 'text-bg-secondary';
}

/** The badge of a diagnosis' status. */
export const diagnosisStatusClass = (status: RecordOf['diagnosis']['status']) =>
  status === 'active' ? 'text-bg-warning' : 'text-bg-success';
