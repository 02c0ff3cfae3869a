import type { ApiRoutes } from '../api-route.ts';
import { activityRoutes } from './activity.ts';
import { authorizationRoutes, authorizationTemplateRoutes } from './authorizations.ts';
import { clinicalRoutes } from './clinical.ts';
import { diagnosisFileRoutes, fileRoutes, laboratoryFileRoutes } from './files.ts';
import { fiscalRoutes, pointOfSaleRecord } from './fiscal.ts';
import { inventoryRoutes, medicationRoutes, supplyRoutes } from './inventory.ts';
import {
  attendanceRecord,
  certificateRecord,
  clinicalRecordExtras,
  diagnosisRecord,
  laboratoryRecord,
  prescriptionRecord,
} from './medical-history.ts';
import { patientRoutes } from './patients.ts';
import { reportRoutes } from './reports.ts';
import { settingsRoutes } from './settings.ts';
import { priceListRoutes, treatmentRecord } from './treatments.ts';
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
  activity: activityRoutes,
  clinical: clinicalRoutes,
} satisfies Record<string, ApiRoutes>;
