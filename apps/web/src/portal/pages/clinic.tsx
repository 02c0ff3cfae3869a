import { CalendarPlus, KeyRound, MapPin, Phone } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { portalAccessApi } from '../public-api';
import { usePublicClinic } from '../public-clinic';
import { Link } from '../router';
import { ErrorAlert, Placeholder, PortalForm, PortalSection } from '../ui';
import { useFormSubmit } from '../use-submit';

/** "Acceder a mis datos": the patient asks for access with their e-mail and ID number. */
function AccessRequest({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const form = useFormSubmit(['email', 'idNumber'], async ({ email, idNumber }) => {
    await portalAccessApi.requestAccess({ params: { slug }, body: { email: email.trim(), ssn: idNumber.trim() } });
    setSent(true);
  });

  if (sent) {
    return (
      <div className="alert alert-success" role="status" data-testid="access-requested">
        {t('clinic.access.sent')}
      </div>
    );
  }
  return (
    <>
      <p>{t('clinic.access.text')}</p>
      <PortalForm
        form={form}
        testId="access-form"
        fields={[
          { name: 'email', type: 'email', autoComplete: 'email', label: t('clinic.access.email') },
          { name: 'idNumber', autoComplete: 'off', label: t('clinic.access.idNumber') },
        ]}
        submitLabel={t('clinic.access.send')}
        icon={KeyRound}
        secondary
      />
    </>
  );
}

/** `/c/:slug`: the clinic's public page (issue 37). */
export function ClinicPage({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const { brand, error } = usePublicClinic(slug);
  return (
    <PortalLayout brand={brand} title={t('clinic.title')}>
      {error ? (
        <ErrorAlert>{portalErrorText(error)}</ErrorAlert>
      ) : !brand ? (
        <Placeholder testId="clinic-loading" minHeight="24rem" />
      ) : (
        <div data-testid="clinic-page">
          <h1 className="h3 mb-2">{brand.name}</h1>
          <ul className="list-unstyled mb-4">
            {brand.address ? (
              <li className="d-flex gap-2 align-items-start mb-1">
                <MapPin size={18} aria-hidden="true" className="mt-1 flex-shrink-0" />
                {brand.mapUrl ? (
                  <a href={brand.mapUrl} target="_blank" rel="noopener noreferrer">
                    {brand.address}
                  </a>
                ) : (
                  <span>{brand.address}</span>
                )}
              </li>
            ) : null}
            {brand.phone ? (
              <li className="d-flex gap-2 align-items-center">
                <Phone size={18} aria-hidden="true" className="flex-shrink-0" />
                <a href={`tel:${brand.phone.replace(/[^\d+]/g, '')}`}>{brand.phone}</a>
              </li>
            ) : null}
          </ul>
          <section className="portal-section">
            <Link
              to={`/c/${encodeURIComponent(slug)}/book`}
              className="btn btn-primary btn-lg w-100"
              testId="clinic-book"
            >
              <CalendarPlus size={20} aria-hidden="true" className="me-2" />
              {t('clinic.book')}
            </Link>
          </section>
          <PortalSection id="clinic-access" title={t('clinic.access.title')}>
            <AccessRequest slug={slug} />
            <p className="mt-3 mb-0">
              <Link to={`/portal/sign-in?clinic=${encodeURIComponent(slug)}`} testId="clinic-sign-in">
                {t('clinic.signIn')}
              </Link>
            </p>
          </PortalSection>
        </div>
      )}
    </PortalLayout>
  );
}
