import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { ApiTokensPanel } from '../features/api-tokens/api-tokens-panel';

/** `/profile/api-tokens` (issue 42; profile.manage): Mi perfil › Tokens de API. */
export function ProfileApiTokensPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.profileApiTokens')} />
      <ApiTokensPanel kind="personal" />
    </>
  );
}

/** `/settings/api-tokens` (issue 42; users.manage): Administración › Tokens de API, the clinic's. */
export function ClinicApiTokensPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.clinicApiTokens')} />
      <ApiTokensPanel kind="clinic" />
    </>
  );
}
