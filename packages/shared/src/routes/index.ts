import type { ApiRoutes } from '../api-route.ts';
import { accountRoutes } from './account.ts';
import { activityRoutes } from './activity.ts';
import { clinicTokenRoutes, personalTokenRoutes } from './api-tokens.ts';
import { appointmentLinkRoutes, appointmentRoutes } from './appointments.ts';
import { publicAuthRoutes, sessionRoutes } from './auth.ts';
import { authorizationRoutes, authorizationTemplateRoutes } from './authorizations.ts';
import { cashRegisterRecord, cashSessionRoutes } from './cash-registers.ts';
import { clinicExportRoutes } from './clinic-export.ts';
import { clinicalRoutes } from './clinical.ts';
import { customerAccountRoutes, providerAccountRoutes } from './current-accounts.ts';
import { dashboardRoutes } from './dashboard.ts';
import { einvoicingRoutes } from './einvoicing.ts';
import { accessExportRoutes, fhirRoutes, portalAccessExportRoutes } from './fhir.ts';
import { diagnosisFileRoutes, fileRoutes, laboratoryFileRoutes } from './files.ts';
import { fiscalRoutes, pointOfSaleRecord } from './fiscal.ts';
import { importRoutes } from './imports.ts';
import { inventoryRoutes, medicationRoutes, supplyRoutes } from './inventory.ts';
import { labCaseRoutes } from './lab-cases.ts';
import {
  attendanceRecord,
  certificateRecord,
  clinicalRecordExtras,
  diagnosisRecord,
  laboratoryRecord,
  prescriptionRecord,
} from './medical-history.ts';
import { messageRoutes, messagingSettingsRoutes, optOutLinkRoutes } from './messages.ts';
import { collectionRoutes, paymentRoutes } from './money.ts';
import { odontogramRoutes } from './odontogram.ts';
import { publicBookingRoutes } from './online-booking.ts';
import { customerRoutes, providerRoutes } from './parties.ts';
import { patientRoutes } from './patients.ts';
import { affiliationRecord, payerPlanRecord, payerRecord, payerRoutes } from './payers.ts';
import { paymentPlanRoutes } from './payment-plans.ts';
import { perioExamRoutes } from './perio.ts';
import { portalAccessRoutes, portalBookingRoutes, portalRoutes, publicPortalRoutes } from './portal.ts';
import { purchaseRoutes } from './purchases.ts';
import { recallRoutes } from './recalls.ts';
import { reportRoutes } from './reports.ts';
import { budgetRoutes, saleRoutes } from './sales.ts';
import { chairRecord, scheduleExceptionRecord, scheduleRoutes } from './schedules.ts';
import { settingsRoutes } from './settings.ts';
import { settlementRoutes, settlementRuleRecord } from './settlements.ts';
import { authorizationSigningRoutes, budgetSigningRoutes, signingLinkRoutes } from './signing-requests.ts';
import { treatmentPlanRoutes } from './treatment-plans.ts';
import { priceListRoutes, treatmentRecord } from './treatments.ts';
import { userRoutes } from './users.ts';
import { waitingListOfferLinkRoutes, waitingListRoutes } from './waiting-list.ts';
import { webhookRoutes } from './webhooks.ts';

/**
 * Every route declared in packages/shared, by resource: the API's test checks that each one is
 * served and documented as declared (apps/api/test/declared-routes.int.test.ts). The web imports
 * a resource's file, never this one (it would pull every contract into each page's bundle).
 */
export const declaredRoutes = {
  patients: patientRoutes,
  authorizations: authorizationRoutes,
  authorizationTemplates: authorizationTemplateRoutes,
  settings: settingsRoutes,
  diagnoses: diagnosisRecord.routes,
  laboratories: laboratoryRecord.routes,
  attendances: attendanceRecord.routes,
  prescriptions: prescriptionRecord.routes,
  certificates: certificateRecord.routes,
  clinicalRecordExtras,
  users: userRoutes,
  appointments: appointmentRoutes,
  recalls: recallRoutes,
  messages: messageRoutes,
  messagingSettings: messagingSettingsRoutes,
  webhooks: webhookRoutes,
  einvoicing: einvoicingRoutes,
  optOutLinks: optOutLinkRoutes,
  schedules: scheduleRoutes,
  scheduleExceptions: scheduleExceptionRecord.routes,
  chairs: chairRecord.routes,
  odontogram: odontogramRoutes,
  perioExams: perioExamRoutes,
  account: accountRoutes,
  session: sessionRoutes,
  publicAuth: publicAuthRoutes,
  appointmentLinks: appointmentLinkRoutes,
  publicBooking: publicBookingRoutes,
  dashboard: dashboardRoutes,
  sales: saleRoutes,
  budgets: budgetRoutes,
  purchases: purchaseRoutes,
  labCases: labCaseRoutes,
  collections: collectionRoutes,
  payments: paymentRoutes,
  customers: customerRoutes,
  providers: providerRoutes,
  customerAccounts: customerAccountRoutes,
  providerAccounts: providerAccountRoutes,
  treatments: treatmentRecord.routes,
  priceList: priceListRoutes,
  medications: medicationRoutes,
  supplies: supplyRoutes,
  inventory: inventoryRoutes,
  fiscal: fiscalRoutes,
  pointsOfSale: pointOfSaleRecord.routes,
  files: fileRoutes,
  diagnosisFiles: diagnosisFileRoutes,
  laboratoryFiles: laboratoryFileRoutes,
  reports: reportRoutes,
  fhir: fhirRoutes,
  accessExports: accessExportRoutes,
  portalAccessExports: portalAccessExportRoutes,
  activity: activityRoutes,
  clinical: clinicalRoutes,
  portal: portalRoutes,
  publicPortal: publicPortalRoutes,
  portalAccess: portalAccessRoutes,
  portalBooking: portalBookingRoutes,

  authorizationSigning: authorizationSigningRoutes,
  budgetSigning: budgetSigningRoutes,
  signingLinks: signingLinkRoutes,
  waitingList: waitingListRoutes,
  waitingListOfferLinks: waitingListOfferLinkRoutes,
  // Issue 40: cash registers.
  cashRegisters: cashRegisterRecord.routes,
  cashSessions: cashSessionRoutes,
  // Issue 40: third-party payers.
  payers: payerRecord.routes,
  payerPlans: payerPlanRecord.routes,
  affiliations: affiliationRecord.routes,
  // Issue 42: API tokens and the clinic's full export.
  personalTokens: personalTokenRoutes,
  clinicTokens: clinicTokenRoutes,
  clinicExports: clinicExportRoutes,
  payerMoney: payerRoutes,
  paymentPlans: paymentPlanRoutes,
  settlementRules: settlementRuleRecord.routes,
  settlements: settlementRoutes,
  // Issue 41: treatment plans.
  treatmentPlans: treatmentPlanRoutes,
  // Issue 42: importing data from another system.
  imports: importRoutes,
} satisfies Record<string, ApiRoutes>;
