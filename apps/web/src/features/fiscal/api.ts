import type { FiscalData, PointOfSale, UpdateFiscalData } from '@odontia/shared/schemas/clinic-fiscal';
import type { Page } from '@odontia/shared/schemas/common';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

/** The clinic's fiscal data, its logo and its points of sale (issue 17). */

export const fiscalKeys = {
  data: ['settings', 'fiscal'] as const,
  logo: ['settings', 'fiscal', 'logo'] as const,
  pointsOfSale: ['points-of-sale'] as const,
};

type FiscalAnswer = { data: FiscalData; code?: string };

export function useFiscalData() {
  return useQuery({ queryKey: fiscalKeys.data, queryFn: () => http.get<FiscalAnswer>('settings/fiscal') });
}

const storeFiscal = (answer: FiscalAnswer) => queryClient.setQueryData(fiscalKeys.data, { data: answer.data });

export function useSaveFiscalData() {
  return useMutation({
    mutationFn: (body: UpdateFiscalData) => http.put<FiscalAnswer>('settings/fiscal', body),
    onSuccess: storeFiscal,
  });
}

export function useUploadLogo() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('logo', file, file.name);
      return http.upload<FiscalAnswer>('settings/fiscal/logo', form, { method: 'PUT' });
    },
    onSuccess: storeFiscal,
  });
}

export function useRemoveLogo() {
  return useMutation({
    mutationFn: () => http.delete<FiscalAnswer>('settings/fiscal/logo'),
    onSuccess: storeFiscal,
  });
}

/** The logo as an object URL (the image needs the session's bearer), refetched when its hash changes. */
export function useLogoUrl(sha256: string | null) {
  const query = useQuery({
    queryKey: [...fiscalKeys.logo, sha256],
    queryFn: () => http.download('settings/fiscal/logo'),
    enabled: Boolean(sha256),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const blob = sha256 ? query.data?.blob : undefined;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}

export function usePointsOfSale() {
  return useQuery({
    queryKey: fiscalKeys.pointsOfSale,
    queryFn: () => http.get<Page<PointOfSale>>('points-of-sale?pageSize=100'),
  });
}

/** Create (no id) or edit (with the version) a point of sale. */
export function useSavePointOfSale(id?: string) {
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      id
        ? http.put<{ data: PointOfSale; code: string }>(`points-of-sale/${encodeURIComponent(id)}`, body)
        : http.post<{ data: PointOfSale; code: string }>('points-of-sale', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fiscalKeys.pointsOfSale }),
  });
}

export function useDeletePointOfSale(id: string) {
  return useMutation({
    mutationFn: () => http.delete<{ code: string }>(`points-of-sale/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fiscalKeys.pointsOfSale }),
  });
}
