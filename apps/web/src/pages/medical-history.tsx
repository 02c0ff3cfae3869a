import { useParams } from 'react-router';
import { EditAttendance, NewAttendance, ShowAttendance } from '../features/medical-history/attendance';
import { EditDiagnosis, NewDiagnosis, ShowDiagnosis } from '../features/medical-history/diagnosis';
import { EditLaboratory, NewLaboratory, ShowLaboratory } from '../features/medical-history/laboratory';

/*
 * The clinical record screens of a patient's medical history (issue 5). Each screen is keyed by
 * its ids, so moving between records starts from a fresh form.
 */

/** `/patients/:patientId/mh/diagnosis/new` (clinical.write). */
export function DiagnosisNewPage() {
  const { patientId = '' } = useParams();
  return <NewDiagnosis key={patientId} patientId={patientId} />;
}

/** `/patients/:patientId/mh/diagnosis/show/:id_diagnosis` (patients.read). */
export function DiagnosisShowPage() {
  const { patientId = '', id_diagnosis: id = '' } = useParams();
  return <ShowDiagnosis key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/patients/:patientId/mh/diagnosis/edit/:id_diagnosis` (clinical.write). */
export function DiagnosisEditPage() {
  const { patientId = '', id_diagnosis: id = '' } = useParams();
  return <EditDiagnosis key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/patients/:patientId/mh/laboratory/new` (clinical.write). */
export function LaboratoryNewPage() {
  const { patientId = '' } = useParams();
  return <NewLaboratory key={patientId} patientId={patientId} />;
}

/** `/patients/:patientId/mh/laboratory/show/:id_laboratory` (patients.read). */
export function LaboratoryShowPage() {
  const { patientId = '', id_laboratory: id = '' } = useParams();
  return <ShowLaboratory key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/patients/:patientId/mh/laboratory/edit/:id_laboratory` (clinical.write). */
export function LaboratoryEditPage() {
  const { patientId = '', id_laboratory: id = '' } = useParams();
  return <EditLaboratory key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/patients/:patientId/mh/attendance/new` (clinical.write). */
export function AttendanceNewPage() {
  const { patientId = '' } = useParams();
  return <NewAttendance key={patientId} patientId={patientId} />;
}

/** `/patients/:patientId/mh/attendance/show/:id_attendance` (patients.read). */
export function AttendanceShowPage() {
  const { patientId = '', id_attendance: id = '' } = useParams();
  return <ShowAttendance key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/patients/:patientId/mh/attendance/edit/:id_attendance` (clinical.write). */
export function AttendanceEditPage() {
  const { patientId = '', id_attendance: id = '' } = useParams();
  return <EditAttendance key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}
