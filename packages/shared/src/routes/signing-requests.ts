import { apiRoute } from '../api-route.ts';
import { patientRecordParamsSchema, recordParamsSchema } from '../schemas/records.ts';
import {
  remoteSignRequestSchema,
  signingLinkAnswerSchema,
  signingLinkParamsSchema,
  signingRequestAnswerSchema,
} from '../schemas/signing-requests.ts';

/** The staff's side of a document's signing request: the latest, send, resend, cancel (issue 37). */
function signingRequestRoutes<
  const Path extends `/${string}`,
  Params extends typeof recordParamsSchema | typeof patientRecordParamsSchema,
>(path: Path, params: Params) {
  const answer = signingRequestAnswerSchema;
  return {
    show: apiRoute({ method: 'GET', path, params, answer }),
    send: apiRoute({ method: 'POST', path, params, answer, status: 201 }),
    resend: apiRoute({ method: 'POST', path: `${path}/resend` as `/${Path}/resend`, params, answer }),
    cancel: apiRoute({ method: 'POST', path: `${path}/cancel` as `/${Path}/cancel`, params, answer }),
  };
}

/** A consent's signing request: /api/patients/:patientId/authorizations/:id/signing-request */
export const authorizationSigningRoutes = signingRequestRoutes(
  '/patients/:patientId/authorizations/:id/signing-request',
  patientRecordParamsSchema,
);

/** A budget's signing request: /api/sales/:id/signing-request */
export const budgetSigningRoutes = signingRequestRoutes('/sales/:id/signing-request', recordParamsSchema);

/** The patient's link (public, the token in the path is the key). */
export const signingLinkRoutes = {
  show: apiRoute({
    method: 'GET',
    path: '/public/signing/:token',
    params: signingLinkParamsSchema,
    answer: signingLinkAnswerSchema,
  }),
  sign: apiRoute({
    method: 'POST',
    path: '/public/signing/:token',
    params: signingLinkParamsSchema,
    body: remoteSignRequestSchema,
    answer: signingLinkAnswerSchema,
  }),
};
