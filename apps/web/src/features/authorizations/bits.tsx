export { useDateTimeFormat } from '../../session/clinic-time';
export { RecordStamps as RecordStampsLine } from '../medical-history/clinical-frame';
export { Fact } from '../medical-history/form-bits';
