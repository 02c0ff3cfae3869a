import { einvoicingRoutes } from '@odontia/shared/routes/einvoicing';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/*
 * The clinic's electronic invoicing (issue 39; administrators): the regime (none, ARCA, Verifactu),
 * the environment, the certificate (never answered back: only what it says), the points of sale's
 * numbers at the authority, the series and the queue (/api/settings/einvoicing).
 */

const einvoicingApi = apiClient(einvoicingRoutes);

export const einvoicingKeys = { settings: ['settings', 'einvoicing'] as const };

export type EinvoicingAnswer = CallAnswer<typeof einvoicingRoutes.get>;
export type EinvoicingBody = CallInput<typeof einvoicingRoutes.update>['body'];
export type CertificateBody = CallInput<typeof einvoicingRoutes.uploadCertificate>['body'];
export type ConnectionAnswer = CallAnswer<typeof einvoicingRoutes.testConnection>['data'];

/** Every answer is the whole settings record: it replaces the cached one. */
const keepSettings = (answer: EinvoicingAnswer) =>
  queryClient.setQueryData(einvoicingKeys.settings, { data: answer.data });

export function useEinvoicingSettings() {
  return useQuery({ queryKey: einvoicingKeys.settings, queryFn: () => einvoicingApi.get() });
}

export function useSaveEinvoicingSettings() {
  return useMutation({ mutationFn: (body: EinvoicingBody) => einvoicingApi.update({ body }), onSuccess: keepSettings });
}

export function useUploadCertificate() {
  return useMutation({
    mutationFn: (body: CertificateBody) => einvoicingApi.uploadCertificate({ body }),
    onSuccess: keepSettings,
  });
}

export function useRemoveCertificate() {
  return useMutation({ mutationFn: () => einvoicingApi.removeCertificate(), onSuccess: keepSettings });
}

/** Asks the authority whether it answers with the stored certificate (nothing is saved). */
export function useTestConnection() {
  return useMutation({ mutationFn: () => einvoicingApi.testConnection().then((answer) => answer.data) });
}
