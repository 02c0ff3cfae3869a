import { CertificateForm, CertificateView } from '../features/certificates/certificate';
import { RecordEditScreen, RecordNewScreen, RecordShowScreen } from '../features/medical-history/record-screens';

/* The health certificate screens of a patient's medical history (issue 24). */

export const CertificateNewPage = () => <RecordNewScreen kind="certificate" Form={CertificateForm} />;
export const CertificateShowPage = () => <RecordShowScreen kind="certificate" View={CertificateView} />;
/** An issued certificate: only its internal notes are edited (the form says so). */
export const CertificateEditPage = () => <RecordEditScreen kind="certificate" Form={CertificateForm} />;
