import { ChevronDown, Pin, UserRound } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { IconButton } from '../../components/icon-button';
import { OdontiaWordmark } from '../../components/odontia-logo';
import { useThemeSettings } from '../../lib/theme-context';
import { mobileLayoutQuery, useMediaQuery } from '../../lib/use-media-query';
import { useSessionUser } from '../../session/session';
import { InboxBadge } from './inbox-badge';
import { isMenuGroup, type MenuGroup, type MenuLink, type MenuSection, menuSectionsFor } from './menu';

/** A level without clinic pages (customer) still gets its one page. */
const profileOnly: MenuSection[] = [
  { titleKey: 'account', items: [{ key: 'profile', labelKey: 'profile', icon: UserRound, to: '/profile' }] },
];

function isActivePath(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Labels are hidden in the icon bars, so links carry a title for the tooltip. */
function useIconOnly(): boolean {
  const { menuSize } = useThemeSettings();
  const mobile = useMediaQuery(mobileLayoutQuery);
  return !mobile && menuSize !== 'default' && menuSize !== 'hidden';
}

function SidebarLink({ item, nested = false }: { item: MenuLink; nested?: boolean }) {
  const { t } = useTranslation('layout');
  const iconOnly = useIconOnly();
  const label = t(`menu.${item.labelKey}`);
  const Icon = item.icon;
  return (
    <li className="menu-item">
      <NavLink
        to={item.to}
        end={item.to === '/account' || item.to === '/settings'}
        className={({ isActive }) => `menu-link${nested ? ' menu-link-nested' : ''}${isActive ? ' active' : ''}`}
        title={iconOnly ? label : undefined}
      >
        <span className="menu-icon">
          <Icon size={nested ? 16 : 20} strokeWidth={1.75} aria-hidden="true" />
        </span>
        <span className="menu-text">{label}</span>
        {/* Icons only, the label is hidden: it still names the link before its badge ("Mensajes, 1 respuesta…"). */}
        {iconOnly && item.badge ? <span className="visually-hidden">{`${label}, `}</span> : null}
        {item.badge === 'inbox' ? <InboxBadge /> : null}
      </NavLink>
    </li>
  );
}

function SidebarGroup({ group }: { group: MenuGroup }) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const containsActive = group.children.some((child) => isActivePath(pathname, child.to));
  const [open, setOpen] = useState(containsActive);
  const expanded = open || containsActive;
  const iconOnly = useIconOnly();
  const label = t(`menu.${group.labelKey}`);
  const Icon = group.icon;
  const id = `menu-group-${group.key}`;
  return (
    <li className={`menu-item menu-group${expanded ? ' open' : ''}`}>
      <button
        type="button"
        className={`menu-link menu-group-toggle${containsActive ? ' has-active' : ''}`}
        aria-expanded={expanded}
        aria-controls={id}
        title={iconOnly ? label : undefined}
        onClick={() => setOpen(!expanded)}
      >
        <span className="menu-icon">
          <Icon size={20} strokeWidth={1.75} aria-hidden="true" />
        </span>
        <span className="menu-text">{label}</span>
        <ChevronDown className="menu-arrow" size={16} aria-hidden="true" />
      </button>
      <ul className="sub-menu" id={id}>
        {group.children.map((child) => (
          <SidebarLink key={child.key} item={child} nested />
        ))}
      </ul>
    </li>
  );
}

export function Sidebar() {
  const { t } = useTranslation('layout');
  const { settings, setMenuSize } = useThemeSettings();
  const level = useSessionUser()?.level;
  const sections = level ? menuSectionsFor(level) : [];
  const visibleSections = sections.length || !level ? sections : profileOnly;

  return (
    <aside className="app-sidebar" id="app-sidebar">
      <div className="sidebar-brand">
        <Link to="/dashboard" className="brand-link" aria-label={t('sidebar.home')}>
          <OdontiaWordmark size={34} />
        </Link>
        {settings.menu.size === 'sm-hover-active' ? (
          <IconButton
            icon={Pin}
            label={t('sidebar.pin')}
            onClick={() => setMenuSize('default')}
            className="sidebar-pin"
          />
        ) : null}
      </div>
      <nav className="sidebar-nav" aria-label={t('sidebar.label')}>
        <ul className="sidebar-menu">
          {visibleSections.map((section) => (
            <li key={section.titleKey} className="menu-section">
              <span className="menu-title">{t(`menu.sections.${section.titleKey}`)}</span>
              <ul className="menu-section-items">
                {section.items.map((item) =>
                  isMenuGroup(item) ? (
                    <SidebarGroup key={item.key} group={item} />
                  ) : (
                    <SidebarLink key={item.key} item={item} />
                  ),
                )}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
