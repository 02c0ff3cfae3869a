import { can } from '@odontia/shared/permissions';
import { Building2, Check, Lock, LogOut, UserCog, UserRound } from 'lucide-react';
import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toastApiError } from '../../lib/api-toast';
import { useLockSession, useSessionUser, useSignOut, useSwitchClinic } from '../../session/session';

function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts.at(-1)?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '');
  return letters.toUpperCase() || '?';
}

export function UserMenu() {
  const { t } = useTranslation('layout');
  const user = useSessionUser();
  const signOut = useSignOut();
  const lock = useLockSession();
  const name = user?.completeName || user?.email || t('user.anonymous');
  const level = user?.level ? t(`levels.${user.level}`, { defaultValue: user.level }) : '';
  const levelName = (value: string) => t(`levels.${value}`, { defaultValue: value });
  const switchClinic = useSwitchClinic();
  const [switching, setSwitching] = useState(false);
  // One sign-in across clinics (issue 19): the list shows only when the person has another clinic.
  const clinics = user?.clinics ?? [];
  const switchTo = async (accountId: string) => {
    setSwitching(true);
    try {
      await switchClinic(accountId); // reloads the page into that clinic's dashboard
    } catch (error) {
      toastApiError(error);
      setSwitching(false);
    }
  };

  return (
    <Dropdown align="end" className="user-menu">
      {/* The visible name and level are the button's name (WCAG 2.5.3); the hidden words say what it opens. */}
      <Dropdown.Toggle variant="link" className="topbar-user no-caret">
        <span className="avatar" aria-hidden="true">
          {initialsOf(name)}
        </span>
        <span className="topbar-user-text">
          <span className="topbar-user-name">{name}</span>
          {level ? <span className="topbar-user-level">{level}</span> : null}
        </span>
        <span className="visually-hidden">{t('topbar.userMenu')}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu className="dropdown-menu-animated user-menu-dropdown">
        {/* react-bootstrap gives the header role="heading"; a heading needs its level (axe). */}
        <Dropdown.Header aria-level={2}>
          <span className="d-block fw-semibold text-body">{name}</span>
          {user?.account?.clinicName ? <span className="d-block small">{user.account.clinicName}</span> : null}
        </Dropdown.Header>
        {clinics.length > 1 ? (
          <>
            <Dropdown.Divider />
            <Dropdown.Header className="user-menu-clinics-title" aria-level={2}>
              {t('user.clinics')}
            </Dropdown.Header>
            {clinics.map((clinic) =>
              clinic.id === user?.account.id ? (
                <Dropdown.ItemText key={clinic.id} className="user-menu-clinic" aria-current="true">
                  <Check size={16} aria-hidden="true" className="text-primary" />
                  <span className="user-menu-clinic-text">
                    <span className="d-block">
                      {clinic.clinicName}
                      <span className="visually-hidden"> ({t('user.currentClinic')})</span>
                    </span>
                    <span className="d-block small text-body-secondary">{levelName(clinic.level)}</span>
                  </span>
                </Dropdown.ItemText>
              ) : (
                <Dropdown.Item
                  key={clinic.id}
                  as="button"
                  className="user-menu-clinic"
                  disabled={switching}
                  onClick={() => void switchTo(clinic.id)}
                >
                  <Building2 size={16} aria-hidden="true" />
                  <span className="user-menu-clinic-text">
                    <span className="d-block">
                      <span className="visually-hidden">{t('user.switchTo')} </span>
                      {clinic.clinicName}
                    </span>
                    <span className="d-block small text-body-secondary">{levelName(clinic.level)}</span>
                  </span>
                </Dropdown.Item>
              ),
            )}
            <Dropdown.Divider />
          </>
        ) : null}
        <Dropdown.Item as={Link} to="/profile">
          <UserRound size={16} aria-hidden="true" />
          {t('user.profile')}
        </Dropdown.Item>
        {user && can(user.level, 'users.manage') ? (
          <Dropdown.Item as={Link} to="/account/users">
            <UserCog size={16} aria-hidden="true" />
            {t('user.users')}
          </Dropdown.Item>
        ) : null}
        <Dropdown.Item as="button" onClick={() => void lock()}>
          <Lock size={16} aria-hidden="true" />
          {t('user.lock')}
        </Dropdown.Item>
        <Dropdown.Divider />
        <Dropdown.Item as="button" className="user-menu-sign-out" onClick={() => void signOut()}>
          <LogOut size={16} aria-hidden="true" />
          {t('user.signOut')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
