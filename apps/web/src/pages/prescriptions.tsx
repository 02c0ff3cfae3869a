import { RecordEditScreen, RecordNewScreen, RecordShowScreen } from '../features/medical-history/record-screens';
import { PrescriptionForm, PrescriptionView } from '../features/prescriptions/prescription';

/* The prescription screens of a patient's medical history (issue 6). */

/** `/patients/:patientId/mh/prescription/new` (clinical.write). */
export const PrescriptionNewPage = () => <RecordNewScreen kind="prescription" Form={PrescriptionForm} />;
/** `/patients/:patientId/mh/prescription/show/:id_prescription` (patients.read). */
export const PrescriptionShowPage = () => <RecordShowScreen kind="prescription" View={PrescriptionView} />;
/** `/patients/:patientId/mh/prescription/edit/:id_prescription` (clinical.write). */
export const PrescriptionEditPage = () => <RecordEditScreen kind="prescription" Form={PrescriptionForm} />;
