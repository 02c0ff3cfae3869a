import {
  authorizationSigningRoutes,
  budgetSigningRoutes,
  signingLinkRoutes,
} from '@odontia/shared/routes/signing-requests';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RoutePermission } from '../../plugins/auth.ts';
import { routes } from '../../plugins/routes.ts';
import { type SigningDocument, type SigningRequestsService, validDays } from './signing-requests.service.ts';

/**
 * Remote signing (issue 37): a consent's and a budget's signing request (the permission that signs
 * at the chair sends, resends and cancels; the one that reads it sees it), and the patient's public
 * link, /api/public/signing/:token, whose token is the only key. Declared in
 * packages/shared/src/routes/signing-requests.ts.
 */
export const signingRequestsRoutes: FastifyPluginAsyncZod<{ service: SigningRequestsService }> = async (
  app,
  { service },
) => {
  const route = routes(app, { tags: ['remote signing'] });

  /** The four staff routes of one kind of document. */
  function documentRoutes(
    declared: typeof authorizationSigningRoutes | typeof budgetSigningRoutes,
    permissions: { read: Exclude<RoutePermission, 'public'>; write: Exclude<RoutePermission, 'public'> },
    name: string,
    documentOf: (params: { id: string; patientId?: string }) => SigningDocument,
  ) {
    route.serve(
      declared.show,
      { permission: permissions.read, summary: `The ${name}'s newest signing request (null when never sent)` },
      ({ ctx, params }) => service.show({ ctx, document: documentOf(params) }),
    );
    route.serve(
      declared.send,
      {
        permission: permissions.write,
        summary: `Send the ${name} to the patient to sign: a one-time link by e-mail, valid ${validDays} days; 409 signing_request_pending, patient_without_email`,
      },
      ({ ctx, params }) => service.send({ ctx, document: documentOf(params) }),
    );
    route.serve(
      declared.resend,
      {
        permission: permissions.write,
        summary: `Mail a new link (the old one stops working) with a new expiry; 409 signing_request_not_pending`,
      },
      ({ ctx, params }) => service.resend({ ctx, document: documentOf(params) }),
    );
    route.serve(
      declared.cancel,
      {
        permission: permissions.write,
        summary: `Cancel the pending signing request: its link stops working; 409 signing_request_not_pending`,
      },
      ({ ctx, params }) => service.cancel({ ctx, document: documentOf(params) }),
    );
  }

  documentRoutes(
    authorizationSigningRoutes,
    { read: 'patients.read', write: 'clinical.write' },
    'authorization',
    (params) => ({ kind: 'authorization', patientId: params.patientId ?? '', id: params.id }),
  );
  documentRoutes(budgetSigningRoutes, { read: 'commercial.read', write: 'commercial.write' }, 'budget', (params) => ({
    kind: 'budget',
    id: params.id,
  }));

  route.servePublic(
    signingLinkRoutes.show,
    {
      summary:
        "The document a signing link is about: the clinic, the text a signature seals, the link's state; 409 signing_document_closed when signed or voided since",
    },
    async ({ params, request }) => service.showLink(params.token, request.ip),
  );

  route.servePublic(
    signingLinkRoutes.sign,
    {
      summary:
        "Sign once from the link (signer's name, ID number, signature PNG): the chair's signature, hash and audit, plus remote, the signer's address and time; 409 signing_link_stale, signing_document_closed",
    },
    async ({ params, body, request }) => service.sign(params.token, body, request.ip),
  );
};
