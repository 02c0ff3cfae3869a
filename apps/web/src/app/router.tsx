import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ProgressBar } from '../components/progress-bar';
import { routerBasename } from '../lib/base-path';
import { i18n } from '../lib/i18n';
import { ProtectedLayout } from './layouts/protected-layout';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';

/*
 * The one route table (spec §2). Every page and both layouts load lazily, so the public pages
 * never download the authenticated layout (ProtectedLayout loads it after the session check). Areas built by later issues share the "coming soon"
 * page and differ only by their title key (`handle.titleKey`, namespace `common`).
 */

const comingSoon = () => import('../pages/coming-soon').then((module) => ({ Component: module.ComingSoonPage }));
const notFound = () => import('../pages/not-found').then((module) => ({ Component: module.NotFoundPage }));

function page(path: string, titleKey: string): RouteObject {
  const handle: RouteHandle = { titleKey: `pages.${titleKey}` };
  return { path, lazy: comingSoon, handle };
}

function authPage(
  path: string,
  titleKey: string,
  lazy: NonNullable<RouteObject['lazy']>,
  options: Omit<RouteHandle, 'titleKey'> = {},
): RouteObject {
  const handle: RouteHandle = { titleKey: `pages.${titleKey}`, ...options };
  return { path, lazy, handle } as RouteObject;
}

/** A built page of the authenticated area (lazy, like every page). */
const builtPage = (path: string, titleKey: string, lazy: NonNullable<RouteObject['lazy']>) =>
  authPage(path, titleKey, lazy);

/** An inventory page: its chunk and the `inventory` texts load together (no untranslated flash). */
const inventoryPage = (path: string, titleKey: string, load: () => Promise<{ Component: ComponentType }>) =>
  builtPage(path, titleKey, () => Promise.all([load(), i18n.loadNamespaces('inventory')]).then(([module]) => module));

/** A patient page: its chunk and the `patients` texts load together. */
const patientPage = (path: string, titleKey: string, load: () => Promise<{ Component: ComponentType }>) =>
  builtPage(path, titleKey, () => Promise.all([load(), i18n.loadNamespaces('patients')]).then(([module]) => module));

/** A page of the medical history: its chunk, the `patients` and the `clinical` texts load together. */
const historyPage = (path: string, titleKey: string, load: () => Promise<{ Component: ComponentType }>) =>
  builtPage(path, titleKey, () =>
    Promise.all([
      load(),
      i18n.loadNamespaces(['patients', 'clinical', 'odontogram', 'prescriptions', 'authorizations', 'files']),
    ]).then(([module]) => module),
  );

type RecordPages = { New: ComponentType; Show: ComponentType; Edit: ComponentType };

/** Clinical record screens under a patient's medical history (new, show, edit). */
function medicalHistoryRecord(
  kind: 'diagnosis' | 'laboratory' | 'attendance',
  idParam: string,
  pages?: (module: typeof import('../pages/medical-history')) => RecordPages,
): RouteObject[] {
  const paths = [
    [`patients/:patientId/mh/${kind}/new`, `${kind}New`, 'New'],
    [`patients/:patientId/mh/${kind}/show/:${idParam}`, `${kind}Show`, 'Show'],
    [`patients/:patientId/mh/${kind}/edit/:${idParam}`, `${kind}Edit`, 'Edit'],
  ] as const;
  return paths.map(([path, titleKey, screen]) =>
    pages
      ? historyPage(path, titleKey, () =>
          import('../pages/medical-history').then((m) => ({ Component: pages(m)[screen] })),
        )
      : page(path, titleKey),
  );
}

/** List, create and view screens of a commercial document. */
function documentPages(area: 'purchases' | 'sales' | 'payments' | 'collections', singular: string, idParam: string) {
  return [
    page(area, area),
    page(`${area}/create`, `${singular}Create`),
    page(`${area}/view/:${idParam}`, `${singular}View`),
  ];
}

export const protectedRoutes: RouteObject[] = [
  page('dashboard', 'dashboard'),
  // Patients and medical history
  patientPage('patients', 'patients', () => import('../pages/patients').then((m) => ({ Component: m.PatientsPage }))),
  patientPage('patients/create', 'patientCreate', () =>
    import('../pages/patients').then((m) => ({ Component: m.PatientCreatePage })),
  ),
  patientPage('patients/edit/:patientId', 'patientEdit', () =>
    import('../pages/patients').then((m) => ({ Component: m.PatientEditPage })),
  ),
  historyPage('patients/:patientId/mh', 'medicalHistory', () =>
    import('../pages/patients').then((m) => ({ Component: m.MedicalHistoryPage })),
  ),
  ...medicalHistoryRecord('diagnosis', 'id_diagnosis', (m) => ({
    New: m.DiagnosisNewPage,
    Show: m.DiagnosisShowPage,
    Edit: m.DiagnosisEditPage,
  })),
  ...medicalHistoryRecord('laboratory', 'id_laboratory', (m) => ({
    New: m.LaboratoryNewPage,
    Show: m.LaboratoryShowPage,
    Edit: m.LaboratoryEditPage,
  })),
  ...medicalHistoryRecord('attendance', 'id_attendance', (m) => ({
    New: m.AttendanceNewPage,
    Show: m.AttendanceShowPage,
    Edit: m.AttendanceEditPage,
  })),
  historyPage('patients/:patientId/mh/prescription/new', 'prescriptionNew', () =>
    import('../pages/prescriptions').then((m) => ({ Component: m.PrescriptionNewPage })),
  ),
  historyPage('patients/:patientId/mh/prescription/show/:id_prescription', 'prescriptionShow', () =>
    import('../pages/prescriptions').then((m) => ({ Component: m.PrescriptionShowPage })),
  ),
  historyPage('patients/:patientId/mh/prescription/edit/:id_prescription', 'prescriptionEdit', () =>
    import('../pages/prescriptions').then((m) => ({ Component: m.PrescriptionEditPage })),
  ),
  // Treatment authorizations (issue 6)
  ...(
    [
      ['patients/:patientId/mh/authorization/new', 'authorizationNew', 'AuthorizationNewPage'],
      ['patients/:patientId/mh/authorization/show/:id_authorization', 'authorizationShow', 'AuthorizationShowPage'],
      ['patients/:patientId/mh/authorization/edit/:id_authorization', 'authorizationEdit', 'AuthorizationEditPage'],
    ] as const
  ).map(([path, titleKey, name]) =>
    historyPage(path, titleKey, () => import('../pages/authorizations').then((m) => ({ Component: m[name] }))),
  ),
  // Agenda (path not given by the spec)
  page('calendar', 'calendar'),
  // Inventory
  inventoryPage('medications', 'medications', () =>
    import('../pages/inventory-list').then((m) => ({ Component: m.MedicationsPage })),
  ),
  inventoryPage('medications/create', 'medicationCreate', () =>
    import('../pages/inventory-item').then((m) => ({ Component: m.MedicationCreatePage })),
  ),
  inventoryPage('medications/edit/:id_pharmacy', 'medicationEdit', () =>
    import('../pages/inventory-item').then((m) => ({ Component: m.MedicationEditPage })),
  ),
  inventoryPage('supplies', 'supplies', () =>
    import('../pages/inventory-list').then((m) => ({ Component: m.SuppliesPage })),
  ),
  inventoryPage('supplies/create', 'supplyCreate', () =>
    import('../pages/inventory-item').then((m) => ({ Component: m.SupplyCreatePage })),
  ),
  inventoryPage('supplies/edit/:id_supplie', 'supplyEdit', () =>
    import('../pages/inventory-item').then((m) => ({ Component: m.SupplyEditPage })),
  ),
  // The "to order" list (path not given by the spec).
  inventoryPage('inventory/reorder', 'inventoryReorder', () =>
    import('../pages/inventory-reorder').then((m) => ({ Component: m.InventoryReorderPage })),
  ),
  page('providers', 'providers'),
  page('providers/create', 'providerCreate'),
  page('providers/edit/:providerId', 'providerEdit'),
  // Commercial
  ...documentPages('purchases', 'purchase', 'purchaseId'),
  ...documentPages('sales', 'sale', 'saleId'),
  ...documentPages('payments', 'payment', 'paymentId'),
  ...documentPages('collections', 'collection', 'collectionId'),
  page('cc-providers', 'ccProviders'),
  page('cc-customers', 'ccCustomers'),
  // Administration (paths not given by the spec)
  page('reports', 'reports'),
  page('schedules', 'schedules'),
  page('settings', 'settings'),
  builtPage('settings/authorization-templates', 'authorizationTemplates', () =>
    Promise.all([
      import('../pages/authorizations').then((m) => ({ Component: m.AuthorizationTemplatesPage })),
      i18n.loadNamespaces('authorizations'),
    ]).then(([module]) => module),
  ),
  page('account', 'account'),
  builtPage('account/users', 'accountUsers', () =>
    import('../pages/account-users').then((m) => ({ Component: m.AccountUsersPage })),
  ),
  builtPage('profile', 'profile', () => import('../pages/profile').then((m) => ({ Component: m.ProfilePage }))),
];

export const authRoutes: RouteObject[] = [
  authPage('sign-in', 'signIn', () => import('../pages/auth/sign-in').then((m) => ({ Component: m.SignInPage }))),
  authPage('sign-up', 'signUp', () => import('../pages/auth/sign-up').then((m) => ({ Component: m.SignUpPage })), {
    wideCard: true,
  }),
  authPage('activation/:token', 'activation', () =>
    import('../pages/auth/activation').then((m) => ({ Component: m.ActivationPage })),
  ),
  authPage('forgot-password', 'forgotPassword', () =>
    import('../pages/auth/forgot-password').then((m) => ({ Component: m.ForgotPasswordPage })),
  ),
  authPage('reset_password/:id', 'resetPassword', () =>
    import('../pages/auth/reset-password').then((m) => ({ Component: m.ResetPasswordPage })),
  ),
  authPage('lock-screen', 'lockScreen', () =>
    import('../pages/auth/lock-screen').then((m) => ({ Component: m.LockScreenPage })),
  ),
  // The terms of use accepted at sign-up (path not given by the spec).
  authPage('terms', 'terms', () => import('../pages/auth/terms').then((m) => ({ Component: m.TermsPage })), {
    wideCard: true,
  }),
];

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    // First lazy load of the matched page: only the progress bar.
    HydrateFallback: ProgressBar,
    children: [
      { index: true, Component: () => <Navigate to="/dashboard" replace /> },
      {
        path: 'auth',
        lazy: () => import('./layouts/auth-layout').then((module) => ({ Component: module.AuthLayout })),
        children: [{ index: true, Component: () => <Navigate to="/auth/sign-in" replace /> }, ...authRoutes],
      },
      {
        id: 'app',
        Component: ProtectedLayout,
        children: protectedRoutes,
      },
      { path: 'pages/error-404-alt', lazy: notFound },
      { path: 'error-404', lazy: notFound },
      { path: '*', lazy: notFound },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: routerBasename() });
}
