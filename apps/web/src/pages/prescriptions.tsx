import { useParams } from 'react-router';
import { EditPrescription, NewPrescription, ShowPrescription } from '../features/prescriptions/prescription';

/* The prescription screens of a patient's medical history (issue 6), keyed by their ids. */

/** `/patients/:patientId/mh/prescription/new` (clinical.write). */
export function PrescriptionNewPage() {
  const { patientId = '' } = useParams();
  return <NewPrescription key={patientId} patientId={patientId} />;
}

/** `/patients/:patientId/mh/prescription/show/:id_prescription` (patients.read). */
export function PrescriptionShowPage() {
  const { patientId = '', id_prescription: id = '' } = useParams();
  return <ShowPrescription key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/patients/:patientId/mh/prescription/edit/:id_prescription` (clinical.write). */
export function PrescriptionEditPage() {
  const { patientId = '', id_prescription: id = '' } = useParams();
  return <EditPrescription key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}
