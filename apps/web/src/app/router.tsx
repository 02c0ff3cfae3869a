import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ProgressBar } from '../components/progress-bar';
import { routerBasename } from '../lib/base-path';
import { appMessagesNamespace, clinicalNamespaces, i18n } from '../lib/i18n';
import { ProtectedLayout, preloadSignedInApp } from './layouts/protected-layout';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';

/*
 * The one route table (spec §2). Every page and both layouts load lazily, so the public pages
 * never download the authenticated layout (ProtectedLayout loads it after the session check).
 *
 * One name per screen (docs/decisions.md, "Screen names"): a screen's id is `<entity><Action>`
 * (`diagnosisNew`, `patientCreate`, `patients` for a list); it is the route id, the title key
 * (`common:pages.<id>`) and, capitalised with `Page`, the component its pages/ module exports
 * (`DiagnosisNewPage`). The action word follows the spec's path (`new`/`show`/`edit` in the
 * medical history, `create`/`edit`/`view` elsewhere). `screen()` holds the rule: it finds the
 * component by the id, so a screen cannot be named twice.
 */

type PageModule<Id extends string> = { [K in `${Capitalize<Id>}Page`]: ComponentType };

/** A built screen: its chunk and its texts (`namespaces`) load together, so no untranslated flash. */
function screen<Id extends string>(
  id: Id,
  path: string,
  load: () => Promise<PageModule<Id>>,
  namespaces: readonly string[] = [],
  handle: Omit<RouteHandle, 'titleKey'> = {},
): RouteObject {
  const name = `${id.charAt(0).toUpperCase()}${id.slice(1)}Page` as `${Capitalize<Id>}Page`;
  return {
    id,
    path,
    handle: { titleKey: `pages.${id}`, ...handle } satisfies RouteHandle,
    lazy: () =>
      Promise.all([load(), namespaces.length ? i18n.loadNamespaces([...namespaces]) : null]).then(([module]) => ({
        Component: module[name],
      })),
  };
}

/** A signed-in screen also loads the server's codes of the signed-in app (lib/i18n.ts `appMessagesNamespace`). */
function signedIn(route: RouteObject): RouteObject {
  const { lazy } = route;
  if (typeof lazy !== 'function') return route;
  return {
    ...route,
    lazy: () => Promise.all([lazy(), i18n.loadNamespaces(appMessagesNamespace)]).then(([loaded]) => loaded),
  };
}

const notFound = () => import('../pages/not-found').then((module) => ({ Component: module.NotFoundPage }));

const patients = ['patients', 'dashboard'] as const;
const inventory = ['inventory'] as const;
/** The medical history's screens show every clinical area's texts. */
const history = [
  ...clinicalNamespaces,
  'dashboard',
  'agenda',
  'budgets',
  'collections',
  'priceList',
  'signing',
  'recalls',
  'messaging',
  'payers',
  'labCases',
] as const;
const medicalHistory = () => import('../pages/medical-history');
const prescriptions = () => import('../pages/prescriptions');
const authorizations = () => import('../pages/authorizations');
const certificates = () => import('../pages/certificates');
const inventoryItem = () => import('../pages/inventory-item');
const inventoryList = () => import('../pages/inventory-list');
const purchases = () => import('../pages/purchases');
const sales = () => import('../pages/sales');
const providersPages = () => import('../pages/providers');
const mh = 'patients/:patientId/mh';
const money = ['payments', 'currentAccounts'] as const;
const payments = () => import('../pages/payments');
const currentAccounts = () => import('../pages/current-accounts');
const collectionTexts = ['collections', 'payments', 'currentAccounts', 'customerPicker'] as const;
const collections = () => import('../pages/collections');
const customerAccounts = () => import('../pages/customer-accounts');
const reports = () => import('../pages/reports');
/** A report names payment methods, document types and shows the sales' integrity report. */
const reportTexts = ['reports', 'payments', 'sales', 'payers'] as const;

export const protectedRoutes: RouteObject[] = [
  screen('dashboard', 'dashboard', () => import('../pages/dashboard'), ['dashboard', 'agenda', 'payments']),
  // Patients and medical history
  screen('patients', 'patients', () => import('../pages/patients'), patients),
  screen('patientCreate', 'patients/create', () => import('../pages/patients'), patients),
  screen('patientEdit', 'patients/edit/:patientId', () => import('../pages/patients'), patients),
  screen('medicalHistory', mh, () => import('../pages/patients'), history),
  screen('diagnosisNew', `${mh}/diagnosis/new`, medicalHistory, history),
  screen('diagnosisShow', `${mh}/diagnosis/show/:id_diagnosis`, medicalHistory, history),
  screen('diagnosisEdit', `${mh}/diagnosis/edit/:id_diagnosis`, medicalHistory, history),
  screen('laboratoryNew', `${mh}/laboratory/new`, medicalHistory, history),
  screen('laboratoryShow', `${mh}/laboratory/show/:id_laboratory`, medicalHistory, history),
  screen('laboratoryEdit', `${mh}/laboratory/edit/:id_laboratory`, medicalHistory, history),
  screen('attendanceNew', `${mh}/attendance/new`, medicalHistory, history),
  screen('attendanceShow', `${mh}/attendance/show/:id_attendance`, medicalHistory, history),
  screen('attendanceEdit', `${mh}/attendance/edit/:id_attendance`, medicalHistory, history),
  screen('prescriptionNew', `${mh}/prescription/new`, prescriptions, history),
  screen('prescriptionShow', `${mh}/prescription/show/:id_prescription`, prescriptions, history),
  screen('prescriptionEdit', `${mh}/prescription/edit/:id_prescription`, prescriptions, history),
  // Health certificates (issue 24)
  screen('certificateNew', `${mh}/certificate/new`, certificates, history),
  screen('certificateShow', `${mh}/certificate/show/:id_certificate`, certificates, history),
  screen('certificateEdit', `${mh}/certificate/edit/:id_certificate`, certificates, history),
  // Treatment authorizations (issue 6)
  screen('authorizationNew', `${mh}/authorization/new`, authorizations, history),
  screen('authorizationShow', `${mh}/authorization/show/:id_authorization`, authorizations, history),
  screen('authorizationEdit', `${mh}/authorization/edit/:id_authorization`, authorizations, history),
  // Agenda (path not given by the spec)
  screen('calendar', 'calendar', () => import('../pages/calendar'), ['agenda', 'patients', 'messaging', 'labCases']),
  // Recalls (issue 38)
  screen('recalls', 'recalls', () => import('../pages/recalls'), ['recalls', 'agenda']),
  // Treatment plans (issue 41): the follow-up list.
  screen('planFollowUp', 'treatment-plans/follow-up', () => import('../pages/treatment-plans'), ['plans']),
  // Dental lab cases (issue 41)
  screen('labCases', 'lab-cases', () => import('../pages/lab-cases'), ['labCases', 'agenda']),
  screen('waitingList', 'waiting-list', () => import('../pages/waiting-list'), ['agenda', 'schedules', 'patients']),
  // Messages to patients (issue 38): the replies' inbox.
  screen('inbox', 'inbox', () => import('../pages/inbox'), ['messaging']),
  // Inventory
  screen('medications', 'medications', inventoryList, inventory),
  screen('medicationCreate', 'medications/create', inventoryItem, inventory),
  screen('medicationEdit', 'medications/edit/:id_pharmacy', inventoryItem, inventory),
  screen('supplies', 'supplies', inventoryList, inventory),
  screen('supplyCreate', 'supplies/create', inventoryItem, inventory),
  screen('supplyEdit', 'supplies/edit/:id_supplie', inventoryItem, inventory),
  // The "to order" list (path not given by the spec).
  screen('inventoryReorder', 'inventory/reorder', () => import('../pages/inventory-reorder'), inventory),
  // Providers (issue 17)
  screen('providers', 'providers', providersPages, ['providers']),
  screen('providerCreate', 'providers/create', providersPages, ['providers']),
  screen('providerEdit', 'providers/edit/:providerId', providersPages, ['providers']),
  // Commercial: list, create and view of each document
  // Purchases (issue 17)
  screen('purchases', 'purchases', purchases, ['purchases']),
  screen('purchaseCreate', 'purchases/create', purchases, ['purchases']),
  screen('purchaseView', 'purchases/view/:purchaseId', purchases, ['purchases', 'labCases']),
  // Price list (issue 18)
  screen('priceList', 'price-list', () => import('../pages/price-list'), ['priceList']),
  screen('customers', 'customers', () => import('../pages/customers'), ['customers', 'providers']),
  // Issue 40: third-party payers.
  screen('payers', 'payers', () => import('../pages/payers'), ['payers']),
  screen('payerPresentations', 'payer-presentations', () => import('../pages/payers'), ['payers']),
  screen('payments', 'payments', payments, money),
  screen('paymentCreate', 'payments/create', payments, money),
  screen('paymentView', 'payments/view/:paymentId', payments, money),
  // Payment plans (issue 40)
  screen('paymentPlans', 'payment-plans', () => import('../pages/payment-plans'), ['paymentPlans']),
  screen('collections', 'collections', collections, collectionTexts),
  screen('collectionCreate', 'collections/create', collections, collectionTexts),
  screen('collectionView', 'collections/view/:collectionId', collections, [...collectionTexts, 'paymentPlans']),
  // Sales (issue 18)
  screen('sales', 'sales', sales, ['sales', 'customerPicker']),
  screen('saleCreate', 'sales/create', sales, ['sales', 'customerPicker', 'odontogram']),
  screen('saleView', 'sales/view/:saleId', sales, ['sales', 'budgets', 'signing', 'paymentPlans']),
  screen('saleIntegrity', 'sales/integrity', sales, ['sales']),
  screen('ccProviders', 'cc-providers', currentAccounts, money),
  screen('ccProviderLedger', 'cc-providers/:providerId', currentAccounts, money),
  screen('ccCustomers', 'cc-customers', customerAccounts, collectionTexts),
  screen('ccCustomerLedger', 'cc-customers/:customerId', customerAccounts, [...collectionTexts, 'paymentPlans']),
  // Administration (paths not given by the spec)
  screen('reports', 'reports', reports, ['reports']),
  screen('report', 'reports/:reportId', reports, reportTexts),
  screen('schedules', 'schedules', () => import('../pages/schedules'), ['schedules']),
  screen('fiscalSettings', 'settings/fiscal', () => import('../pages/fiscal-settings'), ['fiscal']),
  screen('settings', 'settings', () => import('../pages/settings'), ['settings', 'profile', 'sales']),
  screen('messagingSettings', 'settings/messages', () => import('../pages/messaging-settings'), ['messaging']),
  screen('einvoicingSettings', 'settings/einvoicing', () => import('../pages/einvoicing-settings'), ['einvoicing']),
  screen('webhookSettings', 'settings/webhooks', () => import('../pages/webhook-settings'), ['webhooks']),
  screen('authorizationTemplates', 'settings/authorization-templates', authorizations, ['authorizations']),
  // Cash registers (issue 40)
  screen('cashRegister', 'cash', () => import('../pages/cash-registers'), ['cash', 'payments']),
  screen('cashRegistersSettings', 'settings/cash-registers', () => import('../pages/cash-registers'), [
    'cash',
    'clinical',
  ]),
  screen('account', 'account', () => import('../pages/account'), ['account']),
  screen('accountUsers', 'account/users', () => import('../pages/account-users'), ['users']),
  screen('profile', 'profile', () => import('../pages/profile'), ['profile']),
  // Issue 42: API tokens (a person's and the clinic's) and the clinic's full export.
  screen('profileApiTokens', 'profile/api-tokens', () => import('../pages/api-tokens'), ['apiTokens']),
  screen('clinicApiTokens', 'settings/api-tokens', () => import('../pages/api-tokens'), ['apiTokens']),
  screen('clinicExport', 'account/export', () => import('../pages/clinic-export'), ['clinicExport']),
  screen('dataImport', 'account/import', () => import('../pages/data-import'), ['imports']),
  screen('dataImportRun', 'account/import/:importId', () => import('../pages/data-import'), ['imports']),
  // Professional settlements (issue 40)
  screen('settlements', 'settlements', () => import('../pages/settlements'), ['settlements']),
].map(signedIn);

export const authRoutes: RouteObject[] = [
  screen('signIn', 'sign-in', () => import('../pages/auth/sign-in')),
  screen('signUp', 'sign-up', () => import('../pages/auth/sign-up'), [], { wideCard: true }),
  screen('activation', 'activation/:token', () => import('../pages/auth/activation')),
  screen('forgotPassword', 'forgot-password', () => import('../pages/auth/forgot-password')),
  screen('resetPassword', 'reset_password/:id', () => import('../pages/auth/reset-password')),
  screen('lockScreen', 'lock-screen', () => import('../pages/auth/lock-screen')),
  // The terms of use accepted at sign-up (path not given by the spec).
  screen('terms', 'terms', () => import('../pages/auth/terms'), [], { wideCard: true }),
];

/** The reminder's links (issue 16): public like the auth pages, in the same plain layout. */
const appointmentLinkPages = () => import('../pages/appointment-links');
export const appointmentLinkRoutes: RouteObject[] = [
  screen('appointmentConfirm', 'confirm/:token', appointmentLinkPages, ['appointmentLinks']),
  screen('appointmentCancel', 'cancel/:token', appointmentLinkPages, ['appointmentLinks']),
];

/** The mailed link to sign a consent or a budget (issue 37): public, in the same plain layout. */
export const signingLinkRoutes: RouteObject[] = [
  screen('signingLink', ':token', () => import('../pages/signing-link'), ['signing', 'authorizations']),
];

/** A waiting-list offer's mailed link (issue 38): public, in the same plain layout. */
export const waitingListOfferRoutes: RouteObject[] = [
  screen('waitingListOffer', ':token', () => import('../pages/waiting-list-offer'), ['appointmentLinks']),
];

/** The e-mail's "no more e-mails" link (issue 38): public, in the same plain layout. */
export const messageOptOutRoutes: RouteObject[] = [
  screen('messageOptOut', ':token', () => import('../pages/message-opt-out'), ['appointmentLinks']),
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
        path: 'appointment',
        lazy: () => import('./layouts/auth-layout').then((module) => ({ Component: module.AuthLayout })),
        children: appointmentLinkRoutes,
      },
      {
        path: 'sign',
        lazy: () => import('./layouts/auth-layout').then((module) => ({ Component: module.AuthLayout })),
        children: signingLinkRoutes,
      },
      {
        path: 'waiting-list/offer',
        lazy: () => import('./layouts/auth-layout').then((module) => ({ Component: module.AuthLayout })),
        children: waitingListOfferRoutes,
      },
      {
        path: 'messages/opt-out',
        lazy: () => import('./layouts/auth-layout').then((module) => ({ Component: module.AuthLayout })),
        children: messageOptOutRoutes,
      },
      {
        id: 'app',
        Component: ProtectedLayout,
        lazy: () => preloadSignedInApp().then(() => ({})),
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
