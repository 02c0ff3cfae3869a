import type { ApiRoutes } from '../api-route.ts';
import { authorizationRoutes, authorizationTemplateRoutes } from './authorizations.ts';
import { customerAccountRoutes, providerAccountRoutes } from './current-accounts.ts';
import {
  attendanceRecord,
  certificateRecord,
  clinicalRecordExtras,
  diagnosisRecord,
  laboratoryRecord,
  prescriptionRecord,
} from './medical-history.ts';
import { collectionRoutes, paymentRoutes } from './money.ts';
import { customerRoutes, providerRoutes } from './parties.ts';
import { patientRoutes } from './patients.ts';
import { purchaseRoutes } from './purchases.ts';
import { budgetRoutes, saleRoutes } from './sales.ts';
import { settingsRoutes } from './settings.ts';
import { userRoutes } from './users.ts';

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
  sales: saleRoutes,
  budgets: budgetRoutes,
  purchases: purchaseRoutes,
  collections: collectionRoutes,
  payments: paymentRoutes,
  customers: customerRoutes,
  providers: providerRoutes,
  customerAccounts: customerAccountRoutes,
  providerAccounts: providerAccountRoutes,
} satisfies Record<string, ApiRoutes>;
