import { apiRoute } from '../api-route.ts';
import {
  einvoiceCertificateUploadSchema,
  einvoiceConnectionAnswerSchema,
  einvoiceSettingsAnswerSchema,
  einvoiceSettingsUpdateSchema,
} from '../schemas/einvoicing.ts';

/** The clinic's electronic invoicing (issue 39): regime, environment, certificate, points of sale. */
export const einvoicingRoutes = {
  get: apiRoute({ method: 'GET', path: '/settings/einvoicing', answer: einvoiceSettingsAnswerSchema }),
  update: apiRoute({
    method: 'PUT',
    path: '/settings/einvoicing',
    body: einvoiceSettingsUpdateSchema,
    answer: einvoiceSettingsAnswerSchema,
  }),
  uploadCertificate: apiRoute({
    method: 'PUT',
    path: '/settings/einvoicing/certificate',
    body: einvoiceCertificateUploadSchema,
    answer: einvoiceSettingsAnswerSchema,
  }),
  removeCertificate: apiRoute({
    method: 'DELETE',
    path: '/settings/einvoicing/certificate',
    answer: einvoiceSettingsAnswerSchema,
  }),
  testConnection: apiRoute({
    method: 'POST',
    path: '/settings/einvoicing/test',
    answer: einvoiceConnectionAnswerSchema,
  }),
};
