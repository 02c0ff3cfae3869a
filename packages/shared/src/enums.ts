/** Every enumeration of the product specification (§3, §4, §6, §9), defined once. */

// What the sign-in page needs lives in modules of its own, so that page does not download every
// enumeration of the product (npm run bench -- bundle); they are re-exported here.
export { type MenuSize, menuSizes, type ThemeMode, themeModes } from './appearance.ts';
export { type Currency, currencies, currencyIsoCodes } from './currencies.ts';
export { fallbackLanguage, type Language, languages } from './languages.ts';
export { type StaffLevel, staffLevels, type UserLevel, userLevels } from './user-levels.ts';

/** The date formats a user or a clinic may choose (spec §3). */
export const dateFormats = ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof dateFormats)[number];

export const documentTypes = [
  'budget',
  'proforma_invoice',
  'purchase_order',
  'delivery_note',
  'invoice',
  'credit_note',
  'debit_note',
  'proof_payment',
  'receipt',
  /** A patient's balance brought from the clinic's previous system (issue 42's import): registered, never issued. */
  'opening_balance',
] as const;
export type DocumentType = (typeof documentTypes)[number];

export const conditionsSale = ['cash', 'cards', 'current_account'] as const;
export type ConditionSale = (typeof conditionsSale)[number];

export const paymentMethods = [
  'bank_transfer',
  'cash_payment',
  'credit_card',
  'debit_card',
  'wallet',
  'bank_deposit',
] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

export const paymentStatuses = ['pending', 'paid'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const applicationTypes = ['injectable', 'topical', 'oral', 'sublingual', 'periodontal', 'intracanal'] as const;
export type ApplicationType = (typeof applicationTypes)[number];

export const attendanceGroups = [
  'medical_attendance',
  'specializations',
  'surgery',
  'hospitalization',
  'diagnosis',
  'laboratory',
] as const;
export type AttendanceGroup = (typeof attendanceGroups)[number];

export const attendanceTypes = [
  'medical_attendance',
  'home_attendance',
  'virtual_attendance',
  'emergency_attendance',
  'checkup_control',
  'preventive_medicine',
  'anesthesiology',
  'dentistry',
  'oncology',
  'nutrition',
  'traumatology_orthopedics',
  'psychology',
  'pre_surgical_attendance',
  'pre_anesthetic_attendance',
  'general_surgery',
  'dental_surgery',
  'oncological_surgery',
  'reconstructive_surgery',
  'general_hospitalization',
  'magnetic_resonance',
  'computed_tomography',
  'ultrasound',
  'x_ray',
  'dental_radiography',
  'hematology',
  'blood_chemistry',
  'blood_count',
  'coagulation',
  'allergy_tests',
  'dna_tests',
  'biopsy',
  'bacterial_plaque_assessment',
] as const;
export type AttendanceType = (typeof attendanceTypes)[number];

/** The group each attendance type belongs to (the picker groups the types by it). */
export const attendanceGroupOf: Record<AttendanceType, AttendanceGroup> = {
  medical_attendance: 'medical_attendance',
  home_attendance: 'medical_attendance',
  virtual_attendance: 'medical_attendance',
  emergency_attendance: 'medical_attendance',
  checkup_control: 'medical_attendance',
  preventive_medicine: 'medical_attendance',
  anesthesiology: 'specializations',
  dentistry: 'specializations',
  oncology: 'specializations',
  nutrition: 'specializations',
  traumatology_orthopedics: 'specializations',
  psychology: 'specializations',
  pre_surgical_attendance: 'surgery',
  pre_anesthetic_attendance: 'surgery',
  general_surgery: 'surgery',
  dental_surgery: 'surgery',
  oncological_surgery: 'surgery',
  reconstructive_surgery: 'surgery',
  general_hospitalization: 'hospitalization',
  magnetic_resonance: 'diagnosis',
  computed_tomography: 'diagnosis',
  ultrasound: 'diagnosis',
  x_ray: 'diagnosis',
  dental_radiography: 'diagnosis',
  hematology: 'laboratory',
  blood_chemistry: 'laboratory',
  blood_count: 'laboratory',
  coagulation: 'laboratory',
  allergy_tests: 'laboratory',
  dna_tests: 'laboratory',
  biopsy: 'laboratory',
  bacterial_plaque_assessment: 'laboratory',
};

/** What a laboratory order may request: the laboratory and imaging (diagnosis group) attendance types. */
export const laboratoryStudies = [
  'hematology',
  'blood_chemistry',
  'blood_count',
  'coagulation',
  'allergy_tests',
  'dna_tests',
  'biopsy',
  'bacterial_plaque_assessment',
  'magnetic_resonance',
  'computed_tomography',
  'ultrasound',
  'x_ray',
  'dental_radiography',
] as const satisfies readonly AttendanceType[];
export type LaboratoryStudy = (typeof laboratoryStudies)[number];

export const diagnosisStatuses = ['active', 'resolved'] as const;
export type DiagnosisStatus = (typeof diagnosisStatuses)[number];

export const laboratoryStatuses = ['ordered', 'sample_taken', 'result_received'] as const;
export type LaboratoryStatus = (typeof laboratoryStatuses)[number];

/** Permanent (11–48) and primary (51–85) teeth in FDI notation. */
export const fdiTeeth: readonly number[] = [
  ...[1, 2, 3, 4].flatMap((quadrant) => [1, 2, 3, 4, 5, 6, 7, 8].map((tooth) => quadrant * 10 + tooth)),
  ...[5, 6, 7, 8].flatMap((quadrant) => [1, 2, 3, 4, 5].map((tooth) => quadrant * 10 + tooth)),
];

export const toothStatuses = [
  'healthy',
  'caries',
  'filling',
  'sealant',
  'missing',
  'extracted',
  'implant',
  'crown',
  'bridge',
  'fractured',
  'provisional',
  'root_canal',
  'retained_root',
  'supernumerary',
  'to_extract',
  'eruption',
  'impacted',
] as const;
export type ToothStatus = (typeof toothStatuses)[number];

export const toothZones = ['mesial', 'distal', 'buccal', 'lingual', 'occlusal'] as const;
export type ToothZone = (typeof toothZones)[number];

export const toothScopes = ['complete_piece', 'zone'] as const;
export type ToothScope = (typeof toothScopes)[number];

export const approvalStatuses = ['underReview', 'approved', 'suspended', 'withdrawn'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export const ageGroups = ['child', 'adult'] as const;
export type AgeGroup = (typeof ageGroups)[number];

export const sexes = ['male', 'female'] as const;
export type Sex = (typeof sexes)[number];

export const appointmentStatuses = ['scheduled', 'completed', 'cancelled', 'rescheduled'] as const;
export type AppointmentStatus = (typeof appointmentStatuses)[number];

/** Why an appointment was cancelled (issue 16); `no_show` is counted by the reports. */
export const appointmentCancelReasons = [
  'patient_request',
  'no_show',
  'professional_unavailable',
  'clinic_closed',
  'other',
] as const;
export type AppointmentCancelReason = (typeof appointmentCancelReasons)[number];

/** How a confirmation reached the clinic: by staff on a channel, or by the patient's e-mail link. */
export const confirmationChannels = [
  'phone',
  'in_person',
  'whatsapp',
  'sms',
  'email',
  'reminder_link',
  'online',
] as const;
export type ConfirmationChannel = (typeof confirmationChannels)[number];

/** Who booked an appointment (issue 37): the staff, or the patient online. */
export const appointmentOrigins = ['staff', 'online'] as const;
export type AppointmentOrigin = (typeof appointmentOrigins)[number];

/** A waiting-list entry (issue 38): waiting for a slot, or booked through an offer it accepted. */
export const waitingListStatuses = ['waiting', 'booked'] as const;
export type WaitingListStatus = (typeof waitingListStatuses)[number];

/** Who goes first on the waiting list: high priority, then the order of arrival. */
export const waitingListPriorities = ['normal', 'high'] as const;
export type WaitingListPriority = (typeof waitingListPriorities)[number];

/**
 * A freed slot offered to a waiting patient (issue 38): `offered` until its e-mail leaves, then
 * `sent`; `accepted` (booked), `expired` (its hold ran out) or `gone` (another patient or booking
 * took the slot first).
 */
export const waitingListOfferStatuses = ['offered', 'sent', 'accepted', 'expired', 'gone'] as const;
export type WaitingListOfferStatus = (typeof waitingListOfferStatuses)[number];

/** The e-mail reminder of an appointment. */
export const reminderStates = ['none', 'planned', 'sent', 'failed', 'confirmed', 'cancelled_by_patient'] as const;
export type ReminderState = (typeof reminderStates)[number];

/** A dated exception to opening hours or a professional's schedule. */
export const scheduleExceptionKinds = ['holiday', 'vacation', 'block'] as const;
export type ScheduleExceptionKind = (typeof scheduleExceptionKinds)[number];

export const authorizationStatuses = ['unsigned', 'signed'] as const;
export type AuthorizationStatus = (typeof authorizationStatuses)[number];

export const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof weekdays)[number];

/** Spinner sizes of spec §9; the session check uses 12. */
export const spinnerSizes = [4, 6, 8, 12, 16] as const;
export type SpinnerSize = (typeof spinnerSizes)[number];

/** Inventory (issue 4): medicines ("Farmacias") and supplies share one catalogue and one stock ledger. */
export const inventoryKinds = ['medication', 'supply'] as const;
export type InventoryKind = (typeof inventoryKinds)[number];

/** An inactive item stays in the catalogue and its history, but is no longer offered. */
export const productStatuses = ['active', 'inactive'] as const;
export type ProductStatus = (typeof productStatuses)[number];

/** The unit in which a supply is counted (its stock is a whole number of these). */
export const unitMeasurements = [
  'unit',
  'box',
  'pack',
  'pair',
  'cartridge',
  'syringe',
  'vial',
  'ampoule',
  'bottle',
  'tube',
  'roll',
  'kit',
  'ml',
  'l',
  'g',
  'kg',
] as const;
export type UnitMeasurement = (typeof unitMeasurements)[number];

/**
 * Kinds of stock movement. In: initial, purchase, adjustment_in; out: sale, consumption,
 * adjustment_out; a return goes either way (a patient's return comes in, a return to the
 * provider goes out). The ledger stores the signed quantity.
 */
export const stockMovementKinds = [
  'initial',
  'purchase',
  'sale',
  'consumption',
  'adjustment_in',
  'adjustment_out',
  'return',
] as const;
export type StockMovementKind = (typeof stockMovementKinds)[number];

/** The sign a movement kind must have: +1 in, -1 out, 0 either. */
export const stockMovementDirection: Record<StockMovementKind, 1 | -1 | 0> = {
  initial: 1,
  purchase: 1,
  sale: -1,
  consumption: -1,
  adjustment_in: 1,
  adjustment_out: -1,
  return: 0,
};

/**
 * Medicine approval (issue 4): underReview → approved | withdrawn; approved → suspended |
 * withdrawn; suspended → approved | withdrawn; withdrawn is final.
 */
export const approvalTransitions: Record<ApprovalStatus, readonly ApprovalStatus[]> = {
  underReview: ['approved', 'withdrawn'],
  approved: ['suspended', 'withdrawn'],
  suspended: ['approved', 'withdrawn'],
  withdrawn: [],
};

/** Whether a medicine may move from one approval status to another (staying put is no move). */
export function canChangeApproval(from: ApprovalStatus, to: ApprovalStatus): boolean {
  return from === to || approvalTransitions[from].includes(to);
}

/** Stock badge: red at or below the minimum, amber at or below the reorder level. */
export const stockLevels = ['critical', 'reorder', 'ok'] as const;
export type StockLevel = (typeof stockLevels)[number];

export function stockLevelOf(item: { totalStock: number; minStock: number; reorderStock: number }): StockLevel {
  if (item.totalStock <= item.minStock) return 'critical';
  if (item.totalStock <= item.reorderStock) return 'reorder';
  return 'ok';
}

/** Recalls (issue 38): the unit of a treatment's "recall after" interval. */
export const recallUnits = ['days', 'weeks', 'months'] as const;
export type RecallUnit = (typeof recallUnits)[number];
/** A recall's state: waiting to be contacted, contacted, booked (an appointment), closed. */
export const recallStatuses = ['pending', 'contacted', 'booked', 'closed'] as const;
export type RecallStatus = (typeof recallStatuses)[number];
/** The recall list's views: open ones due from today, open ones past due, and each state. */
export const recallViews = ['open', 'due', 'overdue', 'contacted', 'booked', 'closed'] as const;
export type RecallView = (typeof recallViews)[number];
/** How the clinic tried to reach the patient. */
export const recallChannels = ['phone', 'message', 'email'] as const;
export type RecallChannel = (typeof recallChannels)[number];
/** What came of an attempt. */
export const recallOutcomes = ['reached', 'no_answer', 'left_message', 'wrong_number', 'sent'] as const;
export type RecallOutcome = (typeof recallOutcomes)[number];
/** Why a recall was closed; `superseded` is written by a newer recall of the same treatment. */
export const recallCloseReasons = ['declined', 'unreachable', 'treated_elsewhere', 'other', 'superseded'] as const;
export type RecallCloseReason = (typeof recallCloseReasons)[number];
