import { can } from '@odontia/shared/permissions';
import type { Patient } from '@odontia/shared/schemas/patients';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { Spinner } from '../../components/spinner';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { usePatientConsents } from './api';
import { ConsentHistory, ConsentTable } from './consent-panel';
import { MessageLog } from './message-log';
import './messages.css';

/**
 * The medical history's "Mensajes" tab (issue 38): the patient's consent per channel (e-mail, SMS,
 * WhatsApp) with the address each one uses, the yes or no recorded at the desk (patients.write),
 * every change of it, and the log of the messages sent with their delivery.
 */
export function PatientMessagesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('messaging');
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'patients.write') : false;
  const consents = usePatientConsents(patient.id);
  const day = useCalendarDateFormat();
  const name = `${patient.firstName} ${patient.lastName}`;
  return (
    <div data-testid="tab-messages">
      {patient.deceasedOn ? (
        <div className="px-3 pt-3">
          <FormAlert variant="info" testId="patient-deceased-notice">
            {t('consent.deceased', { date: day(patient.deceasedOn) })}
          </FormAlert>
        </div>
      ) : null}
      <section className="p-3 border-bottom" aria-labelledby="patient-consents" data-testid="patient-consents">
        <h3 id="patient-consents" className="h6">
          {t('consent.title')}
        </h3>
        <p className="small text-body-secondary">{t('consent.intro')}</p>
        {consents.isPending ? (
          <div className="consent-loading text-center py-4">
            <Spinner />
          </div>
        ) : consents.isError ? (
          <FormAlert>{t('loadError')}</FormAlert>
        ) : (
          <>
            <ConsentTable patientId={patient.id} patientName={name} consents={consents.data} canWrite={canWrite} />
            <h4 className="h6 mt-3">{t('consent.history')}</h4>
            <ConsentHistory history={consents.data.history} />
          </>
        )}
      </section>
      <MessageLog patientId={patient.id} />
    </div>
  );
}
