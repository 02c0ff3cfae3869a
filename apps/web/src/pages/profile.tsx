import { KeyRound, KeySquare, SlidersHorizontal, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconCard } from '../components/icon-card';
import { PageTitle } from '../components/page-title';
import { DetailsForm } from '../features/profile/details-form';
import { PasswordForm } from '../features/profile/password-form';
import { PreferencesForm } from '../features/profile/preferences-form';
import { useSessionUser } from '../session/session';

function ProfileCard(props: { title: string; icon: ReactNode; children: ReactNode }) {
  return <IconCard {...props} className="profile-card" />;
}

/** `/profile`: the signed-in user's data, preferences and password. */
export function ProfilePage() {
  const { t } = useTranslation(['profile', 'common']);
  const profile = useSessionUser();
  if (!profile) return null;
  return (
    <>
      <PageTitle title={t('common:pages.profile')} />
      <div className="row g-4 profile-page" data-testid="profile-page">
        <div className="col-12 col-xl-6 d-flex flex-column gap-4">
          <ProfileCard title={t('details.title')} icon={<UserRound size={18} aria-hidden="true" />}>
            {/* A new profile (another e-mail saved) starts the form again from the saved values. */}
            <DetailsForm key={`${profile.completeName}|${profile.email}`} profile={profile} />
          </ProfileCard>
          <ProfileCard title={t('preferences.title')} icon={<SlidersHorizontal size={18} aria-hidden="true" />}>
            <PreferencesForm profile={profile} />
          </ProfileCard>
        </div>
        <div className="col-12 col-xl-6">
          <ProfileCard title={t('password.title')} icon={<KeyRound size={18} aria-hidden="true" />}>
            <PasswordForm />
          </ProfileCard>
          {profile.level === 'customer' ? null : (
            <div className="mt-4">
              <ProfileCard title={t('apiTokens.title')} icon={<KeySquare size={18} aria-hidden="true" />}>
                <p>{t('apiTokens.text')}</p>
                <Link to="/profile/api-tokens" className="btn btn-outline-primary" data-testid="profile-api-tokens">
                  {t('apiTokens.open')}
                </Link>
              </ProfileCard>
            </div>
          )}
        </div>
      </div>
    </>
  );
}
