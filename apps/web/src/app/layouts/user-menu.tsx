import { can } from '@odontia/shared/permissions';
import { Lock, LogOut, UserCog, UserRound } from 'lucide-react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLockSession, useSessionUser, useSignOut } from '../../features/auth/session';

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
        <Dropdown.Header>
          <span className="d-block fw-semibold text-body">{name}</span>
          {user?.account?.clinicName ? <span className="d-block small">{user.account.clinicName}</span> : null}
        </Dropdown.Header>
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
        <Dropdown.Item as="button" className="text-danger" onClick={() => void signOut()}>
          <LogOut size={16} aria-hidden="true" />
          {t('user.signOut')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
