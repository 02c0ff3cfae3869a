import { AttendanceView, attendanceLocked } from '../features/medical-history/attendance';
import { AttendanceForm } from '../features/medical-history/attendance-form';
import { DiagnosisForm, DiagnosisView } from '../features/medical-history/diagnosis';
import { LaboratoryForm, LaboratoryView } from '../features/medical-history/laboratory';
import { RecordEditScreen, RecordNewScreen, RecordShowScreen } from '../features/medical-history/record-screens';

/*
 * The clinical record screens of a patient's medical history (issue 5): new and edit need
 * clinical.write, show patients.read. Each screen is keyed by its ids, so moving between records
 * starts from a fresh form.
 */

export const DiagnosisNewPage = () => <RecordNewScreen kind="diagnosis" Form={DiagnosisForm} />;
export const DiagnosisShowPage = () => <RecordShowScreen kind="diagnosis" View={DiagnosisView} />;
export const DiagnosisEditPage = () => <RecordEditScreen kind="diagnosis" Form={DiagnosisForm} />;

export const LaboratoryNewPage = () => <RecordNewScreen kind="laboratory" Form={LaboratoryForm} />;
export const LaboratoryShowPage = () => <RecordShowScreen kind="laboratory" View={LaboratoryView} />;
export const LaboratoryEditPage = () => <RecordEditScreen kind="laboratory" Form={LaboratoryForm} />;

export const AttendanceNewPage = () => <RecordNewScreen kind="attendance" Form={AttendanceForm} />;
export const AttendanceShowPage = () => <RecordShowScreen kind="attendance" View={AttendanceView} />;
/** A finished attendance says it can no longer be edited. */
export const AttendanceEditPage = () => (
  <RecordEditScreen kind="attendance" Form={AttendanceForm} locked={attendanceLocked} />
);
