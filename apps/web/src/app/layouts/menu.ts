import {
  BarChart3,
  BookUser,
  Building2,
  CalendarDays,
  CircleUser,
  Clock,
  HandCoins,
  Landmark,
  LayoutDashboard,
  type LucideIcon,
  Package,
  Pill,
  Scale,
  Settings,
  ShoppingBag,
  ShoppingCart,
  Truck,
  UserCog,
  Users,
  Wallet,
} from 'lucide-react';

export interface MenuLink {
  key: string;
  /** `layout:menu.<labelKey>` */
  labelKey: string;
  icon: LucideIcon;
  to: string;
}

export interface MenuGroup {
  key: string;
  labelKey: string;
  icon: LucideIcon;
  children: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

export interface MenuSection {
  /** `layout:menu.sections.<titleKey>` */
  titleKey: string;
  items: MenuEntry[];
}

export function isMenuGroup(entry: MenuEntry): entry is MenuGroup {
  return 'children' in entry;
}

/** The sidebar, in the order clinic staff use it. */
export const menuSections: MenuSection[] = [
  {
    titleKey: 'clinic',
    items: [
      { key: 'dashboard', labelKey: 'dashboard', icon: LayoutDashboard, to: '/dashboard' },
      { key: 'patients', labelKey: 'patients', icon: Users, to: '/patients' },
      { key: 'calendar', labelKey: 'calendar', icon: CalendarDays, to: '/calendar' },
    ],
  },
  {
    titleKey: 'inventory',
    items: [
      { key: 'medications', labelKey: 'medications', icon: Pill, to: '/medications' },
      { key: 'supplies', labelKey: 'supplies', icon: Package, to: '/supplies' },
      { key: 'providers', labelKey: 'providers', icon: Truck, to: '/providers' },
    ],
  },
  {
    titleKey: 'commercial',
    items: [
      { key: 'purchases', labelKey: 'purchases', icon: ShoppingCart, to: '/purchases' },
      { key: 'sales', labelKey: 'sales', icon: ShoppingBag, to: '/sales' },
      { key: 'payments', labelKey: 'payments', icon: Wallet, to: '/payments' },
      { key: 'collections', labelKey: 'collections', icon: HandCoins, to: '/collections' },
      {
        key: 'currentAccounts',
        labelKey: 'currentAccounts',
        icon: Scale,
        children: [
          { key: 'ccProviders', labelKey: 'ccProviders', icon: Landmark, to: '/cc-providers' },
          { key: 'ccCustomers', labelKey: 'ccCustomers', icon: BookUser, to: '/cc-customers' },
        ],
      },
    ],
  },
  {
    titleKey: 'administration',
    items: [
      { key: 'reports', labelKey: 'reports', icon: BarChart3, to: '/reports' },
      { key: 'schedules', labelKey: 'schedules', icon: Clock, to: '/schedules' },
      { key: 'settings', labelKey: 'settings', icon: Settings, to: '/settings' },
      {
        key: 'myAccount',
        labelKey: 'myAccount',
        icon: CircleUser,
        children: [
          { key: 'account', labelKey: 'account', icon: Building2, to: '/account' },
          { key: 'accountUsers', labelKey: 'accountUsers', icon: UserCog, to: '/account/users' },
        ],
      },
    ],
  },
];
