import { fiscalRoutes, pointOfSaleRecord } from '@odontia/shared/routes/fiscal';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { useBlobUrl } from '../../lib/use-blob-url';

/** The clinic's fiscal data, its logo and its points of sale (issue 17). */

export const fiscalKeys = {
  data: ['settings', 'fiscal'] as const,
  logo: ['settings', 'fiscal', 'logo'] as const,
  pointsOfSale: ['points-of-sale'] as const,
};

const fiscalApi = apiClient(fiscalRoutes);
const pointsOfSaleApi = apiClient(pointOfSaleRecord.routes);

type FiscalAnswer = CallAnswer<typeof fiscalRoutes.get>;

export function useFiscalData() {
  return useQuery({ queryKey: fiscalKeys.data, queryFn: () => fiscalApi.get() });
}

const storeFiscal = (answer: FiscalAnswer) => queryClient.setQueryData(fiscalKeys.data, { data: answer.data });

export function useSaveFiscalData() {
  return useMutation({
    mutationFn: (body: CallInput<typeof fiscalRoutes.save>['body']) => fiscalApi.save({ body }),
    onSuccess: storeFiscal,
  });
}

export function useUploadLogo() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('logo', file, file.name);
      // A multipart body: sent by `http.upload` (the typed client sends JSON), to the declared route.
      return http.upload<CallAnswer<typeof fiscalRoutes.uploadLogo>>(fiscalRoutes.uploadLogo.path.slice(1), form, {
        method: 'PUT',
      });
    },
    onSuccess: storeFiscal,
  });
}

export function useRemoveLogo() {
  return useMutation({
    mutationFn: () => fiscalApi.removeLogo(),
    onSuccess: storeFiscal,
  });
}

/** The logo as an object URL (the image needs the session's bearer), refetched when its hash changes. */
export function useLogoUrl(sha256: string | null) {
  const query = useQuery({
    queryKey: [...fiscalKeys.logo, sha256],
    queryFn: () => fiscalApi.logo(),
    enabled: Boolean(sha256),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return useBlobUrl(sha256 ? query.data?.blob : undefined);
}

export function usePointsOfSale() {
  return useQuery({
    queryKey: fiscalKeys.pointsOfSale,
    queryFn: () => pointsOfSaleApi.list({ query: { pageSize: 100 } }),
  });
}

/** A point of sale's fields, new or edited (with the version the edit started from). */
export type PointOfSaleBody =
  | CallInput<typeof pointOfSaleRecord.routes.create>['body']
  | CallInput<typeof pointOfSaleRecord.routes.update>['body'];

/** Create (no id) or edit (with the version) a point of sale. */
export function useSavePointOfSale(id?: string) {
  return useMutation({
    mutationFn: (body: PointOfSaleBody) =>
      id
        ? pointsOfSaleApi.update({
            params: { id },
            body: body as CallInput<typeof pointOfSaleRecord.routes.update>['body'],
          })
        : pointsOfSaleApi.create({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fiscalKeys.pointsOfSale }),
  });
}

export function useDeletePointOfSale(id: string) {
  return useMutation({
    mutationFn: () => pointsOfSaleApi.remove({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fiscalKeys.pointsOfSale }),
  });
}
