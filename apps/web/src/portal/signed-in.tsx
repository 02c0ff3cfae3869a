import type { PortalMe } from '@odontia/shared/schemas/portal';
import { ArrowLeftRight, LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from './router';

/**
 * What the band offers a signed-in patient: "Cambiar de clínica" when their e-mail enters the
 * portal of more than one clinic (issue 37; not on the choice itself), and "Salir".
 */
export function SignedInActions({
  me,
  signOut,
  offerSwitch = true,
}: {
  me: PortalMe | null;
  signOut: () => Promise<void>;
  offerSwitch?: boolean;
}) {
  const { t } = useTranslation();
  if (!me) return null;
  return (
    <>
      {offerSwitch && me.clinics.length > 1 ? (
        <Link
          to="/portal/clinics"
          className="btn btn-sm portal-icon-button d-inline-flex align-items-center"
          testId="switch-clinic"
        >
          <ArrowLeftRight size={18} aria-hidden="true" />
          <span className="ms-1">{t('home.switchClinic')}</span>
        </Link>
      ) : null}
      <button
        type="button"
        className="btn btn-sm portal-icon-button d-inline-flex align-items-center"
        onClick={() => void signOut()}
        data-testid="sign-out"
      >
        <LogOut size={18} aria-hidden="true" />
        <span className="ms-1">{t('home.signOut')}</span>
      </button>
    </>
  );
}
