import { portalAccessRoutes as declared } from '@odontia/shared/routes/portal';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import type { PortalAccessService } from './portal-access.service.ts';

/**
 * /api/patients/:patientId/portal-access — the staff give, show and take away a patient's portal
 * access (issue 37) from the patient's page. Another clinic's patient answers 404.
 */
export const portalAccessRoutes: FastifyPluginAsync<{ access: PortalAccessService }> = async (app, { access }) => {
  const route = routes(app, { tags: ['portal access'] });

  route.serve(
    declared.show,
    {
      permission: 'patients.read',
      summary: "The patient's portal access: none, invited (link sent, not used yet) or active",
    },
    async ({ ctx, params }) => ({ data: await access.show({ ctx, patientId: params.patientId }) }),
  );

  route.serve(
    declared.invite,
    {
      permission: 'patients.write',
      summary:
        "Invite the patient to the portal: a one-time link (7 days) to the patient's e-mail, in their language; again to send a new link; 409 patient_email_required, portal_email_in_use",
      // The membership is made across clinics (the person's sign-in) and the mail leaves after the commit.
      transaction: false,
    },
    async ({ actor, params }) => ({
      data: await access.invite({ actor, patientId: params.patientId }),
      code: 'portal_access_invited' as const,
    }),
  );

  route.serve(
    declared.revoke,
    {
      permission: 'patients.write',
      summary: "Take the patient's portal access away: the membership is deactivated, its sessions end, its links die",
    },
    async ({ ctx, params }) => ({
      data: await access.revoke({ ctx, patientId: params.patientId }),
      code: 'portal_access_revoked' as const,
    }),
  );
};
