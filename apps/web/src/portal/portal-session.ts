import type { portalAccessExportRoutes } from '@odontia/shared/routes/fhir';
import type { portalBookingRoutes, portalRoutes } from '@odontia/shared/routes/portal';
import type { PortalMe } from '@odontia/shared/schemas/portal';
import { useCallback, useEffect, useState } from 'react';
import { addressClient, type CallInput, callApi, routeAddress } from '../lib/api-client';
import { isApiError } from '../lib/http';
import { tokenStore } from '../lib/storage-keys';
import { clearLocalSession, sessionApi } from '../session/session-store';
import { brandOf } from './public-clinic';
import { useRouter } from './router';

export const portalMeApi = addressClient<Pick<typeof portalRoutes, 'me'>>({ me: ['GET', '/portal/me'] });

/** The patient's own data, by address. */
export const portalDataApi = addressClient<Pick<typeof portalRoutes, 'appointments' | 'documents' | 'balance'>>({
  appointments: ['GET', '/portal/appointments'],
  documents: ['GET', '/portal/documents'],
  balance: ['GET', '/portal/balance'],
});

/**
 * The patient's password: the first one (`PUT /portal/password`, after entering by a link); a
 * change needs the current one, as the staff's does (`sessionApi.changePassword`).
 */
export const portalPasswordApi = {
  ...addressClient<Pick<typeof portalRoutes, 'setPassword'>>({ setPassword: ['PUT', '/portal/password'] }),
  changePassword: sessionApi.changePassword,
};

type DocumentPdfRoute = (typeof portalRoutes)['documentPdf'];
/** A document's PDF: by address too, saying it is a file (an address alone would be read as JSON). */
const documentPdfRoute: DocumentPdfRoute = {
  ...routeAddress<DocumentPdfRoute>('GET', '/portal/documents/:kind/:id/pdf'),
  produces: ['application/pdf'],
};
export const downloadDocumentPdf = (input: CallInput<DocumentPdfRoute>) => callApi(documentPdfRoute, input);

/** The signed-in patient's booking, by address (no contracts downloaded, as on the public pages). */
export const portalBookingApi = addressClient<typeof portalBookingRoutes>({
  freeSlots: ['GET', '/portal/free-slots'],
  book: ['POST', '/portal/bookings'],
  confirm: ['POST', '/portal/appointments/:id/confirm'],
  cancel: ['POST', '/portal/appointments/:id/cancel'],
  reschedule: ['POST', '/portal/appointments/:id/reschedule'],
});

/**
 * The signed-in patient (`GET /api/portal/me`): who they are, their clinic and its settings.
 * Without a session (or with one that ended) the patient is sent to the sign-in page.
 */
export function usePortalMe() {
  const { navigate } = useRouter();
  const [state, setState] = useState<{ me: PortalMe | null; error: unknown }>({ me: null, error: null });
  useEffect(() => {
    if (!tokenStore.get()) {
      navigate('/portal/sign-in', { replace: true });
      return;
    }
    let current = true;
    portalMeApi.me().then(
      ({ data }) => current && setState({ me: data, error: null }),
      (error: unknown) => {
        if (!current) return;
        if (isApiError(error) && (error.status === 401 || error.status === 403)) {
          clearLocalSession();
          navigate('/portal/sign-in', { replace: true });
        } else setState({ me: null, error });
      },
    );
    return () => {
      current = false;
    };
  }, [navigate]);
  const signOut = useCallback(async () => {
    await sessionApi.signOut().catch(() => undefined);
    const slug = state.me?.clinic.slug;
    clearLocalSession();
    navigate(slug ? `/c/${encodeURIComponent(slug)}` : '/portal/sign-in', { replace: true });
  }, [navigate, state.me]);
  return { ...state, brand: state.me ? brandOf(state.me.clinic) : null, signOut };
}

/** The patient's own right of access (issue 42): ask for the ZIP, follow it, download it. */
export const portalAccessExportApi = addressClient<Pick<typeof portalAccessExportRoutes, 'queue' | 'latest' | 'get'>>({
  queue: ['POST', '/portal/access-exports'],
  latest: ['GET', '/portal/access-exports/latest'],
  get: ['GET', '/portal/access-exports/:exportId'],
});
type AccessExportFileRoute = (typeof portalAccessExportRoutes)['file'];
const accessExportFileRoute: AccessExportFileRoute = {
  ...routeAddress<AccessExportFileRoute>('GET', '/portal/access-exports/:exportId/file'),
  produces: ['application/zip'],
};
export const downloadAccessExport = (input: CallInput<AccessExportFileRoute>) => callApi(accessExportFileRoute, input);
