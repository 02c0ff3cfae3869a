import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { allowedFileMimeTypes, maxFilesPerUpload } from '@odontia/shared/schemas/files';
import { installFieldCodes } from '@odontia/shared/validation';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from './db/client.ts';
import type { Env } from './env.ts';
import { accessExportsRoutes } from './features/access-exports/access-exports.routes.ts';
import {
  accessExportHandler,
  accessExportJobKind,
  sweepAccessExports,
} from './features/access-exports/access-exports.service.ts';
import { accountRoutes } from './features/account/account.routes.ts';
import { createAccountService } from './features/account/account.service.ts';
import { configurePayments } from './features/account/payment-adapters.ts';
import { activityRoutes } from './features/activity/activity.routes.ts';
import { apiTokensRoutes } from './features/api-tokens/api-tokens.routes.ts';
import { appointmentsRoutes } from './features/appointments/appointments.routes.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { type AuthThrottle, createAuthThrottle } from './features/auth/auth.throttle.ts';
import { authorizationFeatureRoutes } from './features/authorizations/authorizations.plugin.ts';
import { cashRegistersRoutes } from './features/cash-registers/cash-registers.routes.ts';
import { clinicExportRoutes } from './features/clinic-export/clinic-export.routes.ts';
import {
  clinicExportHandler,
  clinicExportJobKind,
  createClinicExportService,
  sweepClinicExports,
} from './features/clinic-export/clinic-export.service.ts';
import { collectionsRoutes } from './features/collections/collections.routes.ts';
import { currentAccountsRoutes } from './features/current-accounts/current-accounts.routes.ts';
import { customerAccountsRoutes } from './features/current-accounts/customer-accounts.routes.ts';
import { customerLookupRoutes } from './features/customers/customer-lookup.routes.ts';
import { customersRoutes } from './features/customers/customers.routes.ts';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { einvoicingRoutes } from './features/einvoicing/einvoicing.routes.ts';
import { fhirRoutes } from './features/fhir/fhir.routes.ts';
import { foldDayFigureChanges, foldEveryMs } from './features/figures/day-figures.repository.ts';
import { filesRoutes } from './features/files/files.routes.ts';
import { createFilesService } from './features/files/files.service.ts';
import { fiscalRoutes } from './features/fiscal/fiscal.routes.ts';
import { onSlotFreed } from './features/freed-slots.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { importsRoutes } from './features/imports/imports.routes.ts';
import { createImportsService, importJobKind } from './features/imports/imports.service.ts';
import { inventoryRoutes, reorderRoutes } from './features/inventory/inventory.routes.ts';
import { createJobWorker, type JobWorker, setJobNudge } from './features/jobs/jobs.worker.ts';
import { labCasesRoutes } from './features/lab-cases/lab-cases.routes.ts';
import { medicalHistoryRoutes } from './features/medical-history.routes.ts';
import { messagesRoutes } from './features/messages/messages.routes.ts';
import { messageSendHandler, messageSendJobKind } from './features/messages/outbox.ts';
import { messagingWebhooks } from './features/messages/webhooks.routes.ts';
import { onlineBookingMailHandler } from './features/online-booking/online-booking.job.ts';
import { onlineBookingRoutes } from './features/online-booking/online-booking.routes.ts';
import { onlineBookingJobKind } from './features/online-booking/online-booking.service.ts';
import { createPublicBookingService } from './features/online-booking/public-booking.service.ts';
import { patientsRoutes } from './features/patients/patients.routes.ts';
// Issue 40: third-party payers.
import { payersRoutes } from './features/payers/payers.routes.ts';
import { payerPresentationJobKind, presentationJobHandler } from './features/payers/presentations.service.ts';
import { instalmentReminderHandler } from './features/payment-plans/instalment-reminder.job.ts';
import { paymentPlansRoutes } from './features/payment-plans/payment-plans.routes.ts';
import { instalmentReminderJobKind } from './features/payment-plans/payment-plans.service.ts';
import { paymentsRoutes } from './features/payments/payments.routes.ts';
import { portalRoutes } from './features/portal/portal.routes.ts';
import { portalAccessRoutes } from './features/portal/portal-access.routes.ts';
import { createPortalAccessService } from './features/portal/portal-access.service.ts';
import { providersRoutes } from './features/providers/providers.routes.ts';
import { purchasesRoutes } from './features/purchases/purchases.routes.ts';
import { recallMessageHandler } from './features/recalls/recall.job.ts';
import { recallsRoutes } from './features/recalls/recalls.routes.ts';
import { recallMessageJobKind } from './features/recalls/recalls.service.ts';
import { appointmentLinksRoutes } from './features/reminders/appointment-links.routes.ts';
import { createAppointmentLinksService } from './features/reminders/appointment-links.service.ts';
import { appointmentReminderHandler } from './features/reminders/reminder.job.ts';
import { reminderJobKind } from './features/reminders/reminder-plan.ts';
import { reportsRoutes } from './features/reports/reports.routes.ts';
import { reportExportHandler, reportExportJobKind, sweepReportExports } from './features/reports/reports.service.ts';
import { budgetsRoutes } from './features/sales/budgets.routes.ts';
import { configureAuthorities } from './features/sales/einvoicing/authorities.ts';
import { einvoiceHandler, einvoiceJobKind } from './features/sales/einvoicing/einvoice.job.ts';
import { salesRoutes } from './features/sales/sales.routes.ts';
import { schedulesRoutes } from './features/schedules/schedules.routes.ts';
import { settingsRoutes } from './features/settings/settings.routes.ts';
import { createSettingsService } from './features/settings/settings.service.ts';
import { settlementsRoutes } from './features/settlements/settlements.routes.ts';
import { signingRequestsRoutes } from './features/signing/signing-requests.routes.ts';
import { createSigningRequestsService } from './features/signing/signing-requests.service.ts';
import { treatmentPlansRoutes } from './features/treatment-plans/treatment-plans.routes.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { createUsersService } from './features/users/users.service.ts';
import { createOfferLinksService } from './features/waiting-list/offer-links.service.ts';
import { waitingListNextHandler, waitingListOfferHandler } from './features/waiting-list/waiting-list.job.ts';
import { waitingListRoutes } from './features/waiting-list/waiting-list.routes.ts';
import { nextOffersJobKind, offerFreedSlot, offerJobKind } from './features/waiting-list/waiting-list.service.ts';
import { webhookDeliverHandler } from './features/webhooks/webhook.job.ts';
import { webhookDeliverJobKind } from './features/webhooks/webhook-events.ts';
import { webhooksRoutes } from './features/webhooks/webhooks.routes.ts';
import { AppError } from './lib/app-error.ts';
import { createDiskStorage, type DiskStorage, importsDirOf, uploadsDirOf } from './lib/file-storage.ts';
import { nestsDeeperThan } from './lib/json-depth.ts';
import { createMailer, type Mailer } from './lib/mail.ts';
import { createSealer, installationKey } from './lib/secrets.ts';
import { appVersion } from './lib/version.ts';
import { authentication } from './plugins/auth.ts';
import { bodyIdleTimeout } from './plugins/body-timeout.ts';
import { apiNoStore } from './plugins/cache-control.ts';
import { clientErrorAnswer, errorHandling, frameworkErrorCode, send } from './plugins/errors.ts';
import { inputText } from './plugins/input-text.ts';
import { openApi } from './plugins/openapi.ts';
import { readYourWrites } from './plugins/read-your-writes.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { webApp } from './plugins/web-app.ts';

export interface BuildAppOptions {
  env: Env;
  db: Database;
  /** Replaces the mail transport of the environment (tests). */
  mailer?: Mailer;
}

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    db: Database;
    mailer: Mailer;
    /** Password checks and auth mails per e-mail and address, counted in PostgreSQL (issues 3, 14). */
    authThrottle: AuthThrottle;
    /** The job queue's worker of this instance (issue 16); started when the app is ready if JOBS_ENABLED. */
    jobs: JobWorker;
    /** `draining`: shutting down (SIGTERM); readiness answers 503 so a load balancer stops sending requests. */
    lifecycle: { draining: boolean };
  }
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The whole application as a Fastify instance, not yet listening: `server.ts` listens, tests
 * use `app.inject`. The caller owns the database and closes it after the app.
 */
export async function buildApp({ env, db, mailer }: BuildAppOptions): Promise<FastifyInstance> {
  installFieldCodes();
  const app = Fastify({
    logger: {
      level: env.LOG_LEVEL,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    // Keep a caller's request id (a proxy's) when it is safe to log; otherwise make one.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // Only behind a reverse proxy (TRUST_PROXY): otherwise a forged X-Forwarded-For would pick
    // the client IP that the rate limit and the audit trail see.
    trustProxy: env.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (a path segment over maxParamLength, a malformed percent-escape)
    // and the HTTP parser's answer `{ code, message }` like every other error (issue 35).
    frameworkErrors: (error, _request, reply) => send(reply, frameworkErrorCode(error.code)),
    clientErrorHandler: clientErrorAnswer,
  }).withTypeProvider<ZodTypeProvider>();

  // The web client sends `Content-Type: application/json` on every call (spec §7), DELETE too:
  // an empty body is "no body", not a 400. Otherwise Fastify's safe parser (no __proto__), after
  // a look at the nesting: thousands of levels are 400 like any body that is not JSON we read.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const readJson = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (error: Error | null, body?: unknown) => void,
  ) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    if (nestsDeeperThan(text)) return done(new AppError('bad_request'), undefined);
    return parseJson(request, text, done);
  };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, readJson);
  // FHIR's own JSON media type (issue 42: a bundle posted to /api/fhir/import), read the same way.
  app.addContentTypeParser('application/fhir+json', { parseAs: 'string' }, readJson);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('env', env);
  app.decorate('db', db);
  app.decorate(
    'mailer',
    mailer ??
      createMailer({
        smtpUrl: env.SMTP_URL,
        outboxDir: path.join(env.DATA_DIR, 'outbox'),
        from: env.MAIL_FROM,
        log: app.log,
      }),
  );
  app.decorate('authThrottle', createAuthThrottle({ db }));
  app.decorate('lifecycle', { draining: false });
  configurePayments(env.PAYMENT_ADAPTER);
  // My account (issue 19): plans configured → due dates enforced (read-only after the grace days).
  const contract = { enforced: env.PLANS.length > 0, graceDays: env.ACCOUNT_GRACE_DAYS };
  // Reports (issue 19): finished exports live beside the uploads, in their own folder of DATA_DIR.
  const exportsDir = path.join(env.DATA_DIR, 'exports');
  const exportStorage = createDiskStorage(exportsDir);
  // Importing data (issue 42): the uploaded files, in their own folder of DATA_DIR.
  const imports = createImportsService({
    db,
    storage: createDiskStorage(importsDirOf(env.DATA_DIR)),
    chunkRows: env.IMPORT_CHUNK_ROWS,
  });
  // A time freed in the agenda (cancelled, moved, an exception removed) is offered to the waiting
  // list (issue 38), in the transaction that freed it.
  onSlotFreed(offerFreedSlot);
  // The clinics' provider secrets, sealed at rest (issue 38).
  const sealer = createSealer(installationKey({ secretsKey: env.SECRETS_KEY, dataDir: env.DATA_DIR }));
  // E-invoicing (issue 39): the clinics' certificates are sealed with the same key.
  configureAuthorities({
    sealer,
    arcaHomologationUrl: env.ARCA_HOMOLOGATION_URL,
    verifactuTestUrl: env.VERIFACTU_TEST_URL,
    verifactuTestCaFile: env.VERIFACTU_TEST_CA_FILE,
    timeoutMs: env.EINVOICE_TIMEOUT_MS,
  });
  // The job queue (issue 16): every instance polls; `FOR UPDATE SKIP LOCKED` shares the work.
  app.decorate(
    'jobs',
    createJobWorker({
      db,
      log: app.log,
      pollMs: env.JOBS_POLL_MS,
      lockMs: env.JOBS_LOCK_MS,
      concurrency: db.kind === 'pglite' ? 1 : env.JOBS_CONCURRENCY,
      maxBatch: env.JOBS_BATCH,
      handlers: {
        [messageSendJobKind]: messageSendHandler({ sealer, publicUrl: env.PUBLIC_URL }),
        [reminderJobKind]: appointmentReminderHandler({ mailer: app.mailer, publicUrl: env.PUBLIC_URL }),
        [recallMessageJobKind]: recallMessageHandler({ mailer: app.mailer }),
        [instalmentReminderJobKind]: instalmentReminderHandler({ mailer: app.mailer }),
        [onlineBookingJobKind]: onlineBookingMailHandler({ mailer: app.mailer }),
        [offerJobKind]: waitingListOfferHandler({ mailer: app.mailer, publicUrl: env.PUBLIC_URL }),
        [nextOffersJobKind]: waitingListNextHandler(),
        [einvoiceJobKind]: einvoiceHandler(),
        // Webhooks for integrators (issue 42).
        [webhookDeliverJobKind]: webhookDeliverHandler({
          sealer,
          allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_HTTP,
          timeoutMs: env.WEBHOOK_TIMEOUT_MS,
        }),
        [payerPresentationJobKind]: presentationJobHandler(),
        [reportExportJobKind]: reportExportHandler({
          db,
          storage: exportStorage,
          spoolDir: path.join(exportsDir, '.spool'),
          chunkRows: env.REPORT_EXPORT_CHUNK_ROWS,
        }),
        // Issue 42: the clinic's full export, beside the reports' in DATA_DIR/exports.
        [clinicExportJobKind]: clinicExportHandler({
          storage: exportStorage,
          uploads: createDiskStorage(uploadsDirOf(env.DATA_DIR)),
          spoolDir: path.join(exportsDir, '.spool', 'clinic'),
          chunkRows: env.CLINIC_EXPORT_CHUNK_ROWS,
        }),
        // The right of access (issue 42): the patient's ZIP, beside the report exports.
        [accessExportJobKind]: accessExportHandler({
          uploads: createDiskStorage(uploadsDirOf(env.DATA_DIR)),
          storage: exportStorage,
          spoolDir: path.join(exportsDir, '.spool', 'access'),
          apiBase: `${env.PUBLIC_URL}api`,
        }),
        [importJobKind]: imports.handler(),
      },
      tasks: [
        {
          name: 'fold day figures',
          everyMs: foldEveryMs,
          run: async () => void (await foldDayFigureChanges(db, app.log)),
        },
        {
          name: 'remove old report exports',
          everyMs: 3_600_000,
          run: async () => void (await sweepReportExports(db, exportStorage, env.REPORT_EXPORT_KEEP_DAYS)),
        },
        {
          name: 'remove old clinic exports',
          everyMs: 3_600_000,
          run: async () => void (await sweepClinicExports(db, exportStorage, env.REPORT_EXPORT_KEEP_DAYS)),
        },
        {
          name: 'remove old access exports',
          everyMs: 3_600_000,
          run: async () => void (await sweepAccessExports(db, exportStorage, env.REPORT_EXPORT_KEEP_DAYS)),
        },
      ],
    }),
  );
  if (env.JOBS_ENABLED) {
    app.addHook('onReady', async () => {
      app.jobs.start();
      // Work queued for now (an invoice for its authority) is looked for within a moment, not a poll.
      setJobNudge(() => app.jobs.nudge());
    });
    app.addHook('onClose', async () => setJobNudge(null));
  }
  // Before the database closes (the caller closes it after the app): jobs in flight finish first.
  app.addHook('preClose', async () => app.jobs.stop());
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While shutting down, answers in flight close their keep-alive connection, or an idle
  // socket would hold the server open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  const apiPrefix = `${env.BASE_PATH}api`;
  const bodyIdleMs = env.BODY_IDLE_TIMEOUT_SECONDS * 1000;
  await app.register(bodyIdleTimeout, { idleMs: bodyIdleMs });
  const storage = createDiskStorage(uploadsDirOf(env.DATA_DIR));
  await sweepUploadLeftovers(app, storage, bodyIdleMs);
  await app.register(securityHeaders);
  await app.register(readYourWrites, { basePath: env.BASE_PATH });
  await app.register(errorHandling);
  await app.register(apiNoStore, { apiPrefix });
  // Before every route's contract: no NUL or lone surrogate reaches a service (issue 14).
  await app.register(inputText);
  // Before any route: its onRoute hook refuses an API route without a declared permission.
  await app.register(authentication, { apiPrefix, contract });
  await app.register(openApi, { basePath: env.BASE_PATH, version: appVersion });
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { version: appVersion });
      // The session flows and the patient portal's access share the sign-in's mail, throttle and links.
      const authDeps = {
        db,
        mailer: app.mailer,
        throttle: app.authThrottle,
        publicUrl: env.PUBLIC_URL,
        log: app.log,
        contract,
      };
      const service = createAuthService(authDeps);
      await api.register(authRoutes, { service, plansEnforced: contract.enforced });
      const access = createPortalAccessService(authDeps);
      await api.register(portalAccessRoutes, { access });
      await api.register(usersRoutes, {
        service: createUsersService({
          db,
          mailer: app.mailer,
          publicUrl: env.PUBLIC_URL,
          log: app.log,
          plans: env.PLANS,
        }),
      });
      const uploadMaxBytes = Math.floor(env.UPLOAD_MAX_MB * 1024 * 1024);
      await api.register(inventoryRoutes, { kind: 'medication', uploadMaxBytes });
      await api.register(inventoryRoutes, { kind: 'supply', uploadMaxBytes });
      await api.register(reorderRoutes);
      await api.register(patientsRoutes);
      await api.register(appointmentsRoutes);
      await api.register(recallsRoutes);
      await api.register(messagesRoutes, { db, sealer, publicUrl: env.PUBLIC_URL });
      await api.register(messagingWebhooks, { db, sealer, publicUrl: env.PUBLIC_URL });
      await api.register(webhooksRoutes, { sealer, policy: { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_HTTP } });
      await api.register(portalRoutes, { access });
      await api.register(onlineBookingRoutes, {
        publicService: createPublicBookingService({ db, mailer: app.mailer, publicUrl: env.PUBLIC_URL }),
      });
      await api.register(medicalHistoryRoutes);
      await api.register(schedulesRoutes);
      await api.register(providersRoutes);
      await api.register(customerLookupRoutes);
      await api.register(customersRoutes);
      await api.register(fiscalRoutes);
      await api.register(einvoicingRoutes, { sealer });
      await api.register(dashboardRoutes);
      await api.register(paymentPlansRoutes);
      await api.register(treatmentPlansRoutes);
      await api.register(labCasesRoutes);
      await api.register(apiTokensRoutes);
      await api.register(clinicExportRoutes, {
        service: createClinicExportService({ keepDays: env.REPORT_EXPORT_KEEP_DAYS }),
        storage: exportStorage,
      });
      await api.register(reportsRoutes, {
        storage: exportStorage,
        directMaxRows: env.REPORT_DIRECT_EXPORT_MAX_ROWS,
        keepDays: env.REPORT_EXPORT_KEEP_DAYS,
      });
      await api.register(fhirRoutes);
      await api.register(accessExportsRoutes, { storage: exportStorage, keepDays: env.REPORT_EXPORT_KEEP_DAYS });
      await api.register(importsRoutes, { service: imports });
      await api.register(settingsRoutes, {
        service: createSettingsService({ installationMaxMb: env.UPLOAD_MAX_MB }),
      });
      await api.register(accountRoutes, {
        service: createAccountService({
          plans: env.PLANS,
          graceDays: env.ACCOUNT_GRACE_DAYS,
          transferDetails: env.PAYMENT_TRANSFER_DETAILS ?? null,
        }),
      });
      await api.register(filesRoutes, {
        service: createFilesService({
          db,
          storage,
          limits: { maxFileBytes: uploadMaxBytes, maxTotalBytes: Math.floor(env.UPLOAD_TOTAL_MAX_MB * 1024 * 1024) },
          plans: env.PLANS,
        }),
        maxFileBytes: uploadMaxBytes,
        limits: {
          maxFileMb: env.UPLOAD_MAX_MB,
          maxTotalMb: env.UPLOAD_TOTAL_MAX_MB,
          maxFiles: maxFilesPerUpload,
          mimeTypes: [...allowedFileMimeTypes],
        },
      });
      await api.register(authorizationFeatureRoutes);
      await api.register(activityRoutes);
      await api.register(purchasesRoutes);
      await api.register(salesRoutes);
      await api.register(paymentsRoutes);
      await api.register(currentAccountsRoutes);
      await api.register(budgetsRoutes);
      await api.register(collectionsRoutes);
      await api.register(customerAccountsRoutes);
      await api.register(cashRegistersRoutes);
      await api.register(appointmentLinksRoutes, { service: createAppointmentLinksService(db) });
      await api.register(waitingListRoutes, { links: createOfferLinksService(db) });
      await api.register(settlementsRoutes);
      await api.register(signingRequestsRoutes, {
        service: createSigningRequestsService({ db, mailer: app.mailer, publicUrl: env.PUBLIC_URL }),
      });
      await api.register(payersRoutes);
    },
    { prefix: apiPrefix },
  );
  await app.register(webApp, { basePath: env.BASE_PATH, distDir: env.WEB_DIST_DIR });

  // Unknown API paths answer JSON; any other GET under the base path is a client-side route.
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === apiPrefix || pathname.startsWith(`${apiPrefix}/`);
    // A missing file (an old tab asking for a chunk replaced by a deploy) is a 404, not the page.
    const isFile = /\.[A-Za-z0-9]+$/.test(pathname);
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && pathname.startsWith(env.BASE_PATH) && !isFile;
    if (!isApi && isPage) {
      const answered = app.spaFallback(reply, pathname);
      if (answered) return answered;
    }
    return send(reply, 'route_not_found');
  });

  return app;
}

/**
 * Partial uploads a stopped process left in `uploads/.tmp` (issue 14). A live upload writes at
 * least once per idle timeout or is cut off, so a temp file untouched for two of them is a
 * leftover; a recent one may be another process's upload (a shared disk), so it waits for the
 * second sweep, once that much time has passed.
 */
async function sweepUploadLeftovers(app: FastifyInstance, storage: DiskStorage, bodyIdleMs: number): Promise<void> {
  const staleAfterMs = 2 * bodyIdleMs;
  const sweep = async () => {
    const removed = await storage.sweepTemp(staleAfterMs);
    if (removed > 0) app.log.info({ removed }, 'removed partial uploads left by a previous run');
  };
  await sweep();
  const later = setTimeout(() => {
    sweep().catch((error: unknown) => app.log.warn({ err: error }, 'could not sweep partial uploads'));
  }, staleAfterMs + 1000);
  later.unref();
  app.addHook('onClose', async () => clearTimeout(later));
}
