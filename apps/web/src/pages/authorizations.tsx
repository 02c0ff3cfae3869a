import { useParams } from 'react-router';
import { EditAuthorization, NewAuthorization, ShowAuthorization } from '../features/authorizations/pages';
import { AuthorizationTemplatesPage as Templates } from '../features/authorizations/templates-page';

/* Treatment authorizations of a patient and the clinic's consent templates (issue 6). */

/** `/patients/:patientId/mh/authorization/new` */
export function AuthorizationNewPage() {
  const { patientId = '' } = useParams();
  return <NewAuthorization key={patientId} patientId={patientId} />;
}

/** `/patients/:patientId/mh/authorization/show/:id_authorization` */
export function AuthorizationShowPage() {
  const { patientId = '', id_authorization: id = '' } = useParams();
  return <ShowAuthorization key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/patients/:patientId/mh/authorization/edit/:id_authorization` */
export function AuthorizationEditPage() {
  const { patientId = '', id_authorization: id = '' } = useParams();
  return <EditAuthorization key={`${patientId}/${id}`} patientId={patientId} id={id} />;
}

/** `/settings/authorization-templates` (settings.manage) */
export function AuthorizationTemplatesPage() {
  return <Templates />;
}
