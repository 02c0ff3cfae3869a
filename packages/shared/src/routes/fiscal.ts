import { apiRoute } from '../api-route.ts';
import { fiscalDataResponseSchema, pointOfSaleContracts, updateFiscalDataSchema } from '../schemas/clinic-fiscal.ts';
import { recordApiRoutes } from './records.ts';

/** The clinic's business and fiscal data and its logo (issue 17): /api/settings/fiscal. */
export const fiscalRoutes = {
  get: apiRoute({ method: 'GET', path: '/settings/fiscal', answer: fiscalDataResponseSchema }),
  save: apiRoute({
    method: 'PUT',
    path: '/settings/fiscal',
    body: updateFiscalDataSchema,
    answer: fiscalDataResponseSchema,
  }),
  logo: apiRoute({ method: 'GET', path: '/settings/fiscal/logo', produces: ['image/png'] }),
  /** A multipart body (one file part `logo`): the web sends it with `http.upload`, not as JSON. */
  uploadLogo: apiRoute({ method: 'PUT', path: '/settings/fiscal/logo', answer: fiscalDataResponseSchema }),
  removeLogo: apiRoute({ method: 'DELETE', path: '/settings/fiscal/logo', answer: fiscalDataResponseSchema }),
};

/** The clinic's points of sale (puntos de venta): /api/points-of-sale. */
export const pointOfSaleRecord = recordApiRoutes({
  path: '/points-of-sale',
  contracts: pointOfSaleContracts,
});
