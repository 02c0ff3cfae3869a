import type { UserLevel } from '@odontia/shared/enums';
import { can, type PermissionAction } from '@odontia/shared/permissions';
import {
  Archive,
  Banknote,
  BarChart3,
  BookUser,
  Building2,
  CalendarDays,
  CalendarRange,
  CircleUser,
  ClipboardCheck,
  ClipboardList,
  Clock,
  Contact,
  Crown,
  FileSignature,
  FileStack,
  FileUp,
  HandCoins,
  HeartHandshake,
  Hourglass,
  Inbox,
  KeyRound,
  Landmark,
  LayoutDashboard,
  LockKeyhole,
  type LucideIcon,
  Package,
  Percent,
  PhoneCall,
  Pill,
  Receipt,
  Scale,
  Settings,
  ShieldPlus,
  ShoppingBag,
  ShoppingCart,
  Store,
  Tags,
  Truck,
  UserCog,
  Users,
  Wallet,
  Webhook,
} from 'lucide-react';

export interface MenuLink {
  key: string;
  /** `layout:menu.<labelKey>` */
  labelKey: string;
  icon: LucideIcon;
  to: string;
  /** A count beside the label: the replies waiting in the inbox. */
  badge?: 'inbox';
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

/**
 * The action a level needs to open a path (docs/permissions.md), written once: the sidebar and
 * the user menu hide what a level may not use, and the route guard shows the 403 page for it.
 * The longest matching prefix wins; a path not listed here is open to every signed-in level.
 */
export const pathActions: ReadonlyArray<readonly [path: string, action: PermissionAction]> = [
  ['/dashboard', 'patients.read'],
  ['/patients', 'patients.read'],
  ['/patients/create', 'patients.write'],
  ['/patients/edit', 'patients.write'],
  ['/calendar', 'appointments.write'],
  ['/recalls', 'patients.read'],
  // Treatment plans (issue 41): the follow-up list.
  ['/treatment-plans', 'patients.read'],
  ['/lab-cases', 'patients.read'],
  // The waiting list (issue 38): the agenda's.
  ['/waiting-list', 'appointments.write'],
  // The patients' replies (issue 38): every level that reads patients; answering needs appointments.write.
  ['/inbox', 'patients.read'],
  ['/medications', 'inventory.read'],
  ['/medications/create', 'inventory.write'],
  // The item page: read-only without inventory.write (no save, no stock adjustment).
  ['/medications/edit', 'inventory.read'],
  ['/supplies', 'inventory.read'],
  ['/supplies/create', 'inventory.write'],
  ['/supplies/edit', 'inventory.read'],
  ['/inventory/reorder', 'inventory.read'],
  ['/providers', 'commercial.read'],
  ['/providers/create', 'commercial.write'],
  ['/providers/edit', 'commercial.write'],
  ['/purchases', 'commercial.read'],
  ['/purchases/create', 'commercial.write'],
  ['/price-list', 'commercial.read'],
  ['/customers', 'commercial.read'],
  // Issue 40: third-party payers.
  ['/payers', 'commercial.read'],
  ['/payer-presentations', 'commercial.read'],
  ['/sales', 'commercial.read'],
  ['/sales/create', 'commercial.write'],
  ['/payments', 'commercial.read'],
  ['/payments/create', 'commercial.write'],
  ['/collections', 'commercial.read'],
  ['/collections/create', 'commercial.write'],
  // Cash registers (issue 40): the front desk's register; its registers are settings.
  ['/cash', 'commercial.read'],
  // Payment plans (issue 40)
  ['/payment-plans', 'commercial.read'],
  ['/cc-providers', 'commercial.read'],
  ['/cc-customers', 'commercial.read'],
  ['/reports', 'reports.read'],
  ['/settlements', 'reports.read'],
  // Everyone who reads the agenda reads the hours (issue 16); settings.manage edits them, appointments.write adds blocks.
  ['/schedules', 'patients.read'],
  ['/settings', 'settings.manage'],
  ['/settings/fiscal', 'settings.manage'],
  ['/account', 'account.manage'],
  ['/account/users', 'users.manage'],
  // Issue 42: the clinic's API tokens (its administrators) and its full export.
  ['/settings/api-tokens', 'users.manage'],
  ['/account/export', 'clinic.export'],
  ['/account/import', 'data.import'],
  ['/profile', 'profile.manage'],
];

function matchesPath(pathname: string, path: string): boolean {
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** The action needed to open `pathname` (inside the app, without the base path); null when none. */
export function actionForPath(pathname: string): PermissionAction | null {
  let found: readonly [string, PermissionAction] | null = null;
  for (const entry of pathActions) {
    if (matchesPath(pathname, entry[0]) && (!found || entry[0].length > found[0].length)) found = entry;
  }
  return found ? found[1] : null;
}

/** True when `level` may open `pathname`. */
export function canOpen(level: UserLevel, pathname: string): boolean {
  const action = actionForPath(pathname);
  return action === null || can(level, action);
}

/** Where a level lands: the dashboard, or the profile for a level without clinic pages (customer). */
export function homePathFor(level: UserLevel): string {
  return canOpen(level, '/dashboard') ? '/dashboard' : '/profile';
}

/** The sidebar of one level: links it may open, groups and sections left without links dropped. */
export function menuSectionsFor(level: UserLevel): MenuSection[] {
  return menuSections.flatMap((section) => {
    const items = section.items.flatMap((item): MenuEntry[] => {
      if (!isMenuGroup(item)) return canOpen(level, item.to) ? [item] : [];
      const children = item.children.filter((child) => canOpen(level, child.to));
      return children.length ? [{ ...item, children }] : [];
    });
    return items.length ? [{ ...section, items }] : [];
  });
}

/** A link of the sidebar; its key names its label too (`layout:menu.<key>`). */
const link = (key: string, icon: LucideIcon, to: string): MenuLink => ({ key, labelKey: key, icon, to });

/** A group of links of the sidebar, labelled like a link. */
const group = (key: string, icon: LucideIcon, children: MenuLink[]): MenuGroup => ({
  key,
  labelKey: key,
  icon,
  children,
});

/** The sidebar, in the order clinic staff use it. */
export const menuSections: MenuSection[] = [
  {
    titleKey: 'clinic',
    items: [
      link('dashboard', LayoutDashboard, '/dashboard'),
      link('patients', Users, '/patients'),
      link('calendar', CalendarDays, '/calendar'),
      link('recalls', PhoneCall, '/recalls'),
      link('planFollowUp', ClipboardCheck, '/treatment-plans/follow-up'),
      // Issue 41: dental lab cases, by due date.
      link('labCases', Crown, '/lab-cases'),
      link('waitingList', Hourglass, '/waiting-list'),
      { ...link('inbox', Inbox, '/inbox'), badge: 'inbox' },
    ],
  },
  {
    titleKey: 'inventory',
    items: [
      link('medications', Pill, '/medications'),
      link('supplies', Package, '/supplies'),
      link('inventoryReorder', ClipboardList, '/inventory/reorder'),
      link('providers', Truck, '/providers'),
    ],
  },
  {
    titleKey: 'commercial',
    // What the front desk opens every day first; the payers' and the payables' screens in groups.
    items: [
      link('sales', ShoppingBag, '/sales'),
      link('collections', HandCoins, '/collections'),
      link('cashRegister', Banknote, '/cash'),
      link('paymentPlans', CalendarRange, '/payment-plans'),
      link('customers', Contact, '/customers'),
      link('priceList', Tags, '/price-list'),
      group('payersGroup', HeartHandshake, [
        link('payers', ShieldPlus, '/payers'),
        link('payerPresentations', FileStack, '/payer-presentations'),
      ]),
      group('payablesGroup', Store, [
        link('purchases', ShoppingCart, '/purchases'),
        link('payments', Wallet, '/payments'),
        link('settlements', Percent, '/settlements'),
      ]),
      group('currentAccounts', Scale, [
        link('ccProviders', Landmark, '/cc-providers'),
        link('ccCustomers', BookUser, '/cc-customers'),
      ]),
    ],
  },
  {
    titleKey: 'administration',
    items: [
      link('reports', BarChart3, '/reports'),
      link('schedules', Clock, '/schedules'),
      link('fiscalSettings', Receipt, '/settings/fiscal'),
      link('settings', Settings, '/settings'),
      link('cashRegistersSettings', LockKeyhole, '/settings/cash-registers'),
      link('authorizationTemplates', FileSignature, '/settings/authorization-templates'),
      link('webhookSettings', Webhook, '/settings/webhooks'),
      group('myAccount', CircleUser, [
        link('account', Building2, '/account'),
        link('accountUsers', UserCog, '/account/users'),
        link('clinicApiTokens', KeyRound, '/settings/api-tokens'),
        link('clinicExport', Archive, '/account/export'),
        link('dataImport', FileUp, '/account/import'),
      ]),
    ],
  },
];
