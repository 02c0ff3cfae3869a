import { ClinicalFrame, type ClinicalFrameProps } from '../medical-history/clinical-frame';
import { authorizationPaths } from './api';
import './authorizations.css';

/** Every authorization screen: the clinical frame, its back link on the history's Autorizaciones tab. */
export function AuthorizationFrame(props: Omit<ClinicalFrameProps, 'kind' | 'backTo'>) {
  return <ClinicalFrame {...props} backTo={authorizationPaths.tab(props.patientId)} />;
}
