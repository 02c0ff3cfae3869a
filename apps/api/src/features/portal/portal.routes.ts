import { portalRoutes as declared, publicPortalRoutes } from '@odontia/shared/routes/portal';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { sendPdf } from '../../lib/pdf.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { inTransaction, routes } from '../../plugins/routes.ts';
import { findLogo } from '../fiscal/fiscal.repository.ts';
import { findClinicBySlug } from './portal.repository.ts';
import { portalAppointments, portalBalance, portalDocumentPdf, portalDocuments, portalMe } from './portal.service.ts';
import type { PortalAccessService } from './portal-access.service.ts';

const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/**
 * /api/portal/* — the patient portal (issue 37): a customer session's own data, `portal.use`
 * only. Every handler's transaction runs as the session's patient (plugins/routes.ts →
 * `withPatient`): the database itself refuses any other patient's rows. Beside them, the public
 * routes of the clinic's page: its data and logo, the access request, the one-time link.
 */
export const portalRoutes: FastifyPluginAsync<{ access: PortalAccessService }> = async (app, { access }) => {
  const route = routes(app, { tags: ['portal'] });

  route.serve(
    declared.me,
    {
      permission: 'portal.use',
      summary:
        "The signed-in patient, their clinic and the portal's settings; whether their sign-in has a password, and the clinics whose portal they may enter (never a staff membership)",
      // The patient's data in their transaction; the person's sign-in and clinics across clinics.
      transaction: false,
    },
    async ({ actor }) => {
      const me = await inTransaction(app.db, actor, portalMe);
      return { data: { ...me, ...(await access.person(actor)) } };
    },
  );

  const read = { permission: 'portal.use' } as const;

  route.serve(
    declared.appointments,
    {
      ...read,
      summary:
        "The patient's appointments, upcoming (soonest first) and past (newest first), with professional, treatment, status and whether they may still be cancelled or moved online",
    },
    async ({ ctx }) => ({ data: await portalAppointments(ctx) }),
  );

  route.serve(
    declared.documents,
    {
      ...read,
      summary:
        "The patient's documents, newest first: prescriptions, certificates, signed consents, issued sales and collections of their own account",
    },
    async ({ ctx }) => ({ data: await portalDocuments(ctx) }),
  );

  route.serve(
    declared.documentPdf,
    {
      ...read,
      summary: 'One of the listed documents as the same PDF the clinic prints; 404 not_found for any other',
      // Read in the patient's transaction, rendered after it.
      transaction: false,
    },
    async ({ actor, params, reply }) => sendPdf(reply, await portalDocumentPdf(app.db, actor, params)),
  );

  route.serve(
    declared.balance,
    {
      ...read,
      summary: "The patient's balance, on-account credit and open documents in the clinic's currency, and how to pay",
    },
    async ({ ctx }) => ({ data: await portalBalance(ctx) }),
  );

  route.serve(
    declared.setPassword,
    {
      permission: 'portal.use',
      summary:
        'The first password of a patient who entered by a link (then the normal sign-in works); 409 password_already_set when the sign-in has one',
      transaction: false,
    },
    async ({ actor, body, request }) => {
      await access.setFirstPassword(actor, body.password, sessionOf(request).sessionId);
      return { code: 'portal_password_set' as const };
    },
  );

  const clinicOf = async (slug: string) => {
    const clinic = await app.db.withSystem((tx) => findClinicBySlug(tx, slug));
    if (!clinic) throw new AppError('clinic_not_found');
    return clinic;
  };

  route.servePublic(
    publicPortalRoutes.clinic,
    {
      summary: "A clinic's public page: its name, address, phone, time zone, language and brand; 404 clinic_not_found",
    },
    async ({ params }) => ({ data: (await clinicOf(params.slug)).clinic }),
  );

  route.servePublic(
    publicPortalRoutes.logo,
    { summary: "The clinic's logo (PNG); 404 not_found without one" },
    async ({ params, reply }) => {
      const clinic = await clinicOf(params.slug);
      const logo = await app.db.withTenant(clinic.id, (tx) => findLogo({ tx, accountId: clinic.id }));
      if (!logo) throw new AppError('not_found');
      return reply.type(logo.contentType).header('etag', `"${logo.sha256}"`).send(logo.bytes);
    },
  );

  route.servePublic(
    publicPortalRoutes.requestAccess,
    {
      summary:
        'A patient asks for a sign-in link with their e-mail and ID number: mailed when they match a live patient of the clinic; the same answer either way; throttled like the sign-in (429)',
    },
    async ({ params, body, request }) => {
      await access.request(params.slug, body, clientOf(request));
      return { code: 'portal_access_requested' as const };
    },
  );

  route.servePublic(
    publicPortalRoutes.signIn,
    {
      summary:
        "The portal's sign-in: e-mail and password open the patient membership last entered (or the oldest), never a staff one; the profile's clinics are the person's portal clinics (two or more: the portal offers a choice, then /auth/switch). Throttled like the staff's; 401 invalid_credentials, 403 portal_access_none",
    },
    async ({ body, request }) => ({
      data: await access.signIn(body, clientOf(request)),
      code: 'login_success' as const,
    }),
  );

  route.servePublic(
    publicPortalRoutes.signInWithLink,
    {
      summary:
        'The one-time link of an invitation or a request opens a customer session; 404 invalid_token, 410 token_expired when used or expired',
    },
    async ({ params, request }) => ({
      data: await access.signInWithLink(params.token, clientOf(request)),
      code: 'login_success' as const,
    }),
  );
};
