import { userLevels } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import { describe, expect, it } from 'vitest';
import { actionForPath, canOpen, homePathFor, isMenuGroup, menuSections, menuSectionsFor } from './menu';

function linksOf(level: Parameters<typeof menuSectionsFor>[0]): string[] {
  return menuSectionsFor(level).flatMap((section) =>
    section.items.flatMap((item) => (isMenuGroup(item) ? item.children.map((child) => child.to) : [item.to])),
  );
}

describe('menu by level', () => {
  it('every sidebar link has an action', () => {
    const all = menuSections.flatMap((section) =>
      section.items.flatMap((item) => (isMenuGroup(item) ? item.children : [item])),
    );
    for (const link of all) expect(actionForPath(link.to), link.to).not.toBeNull();
  });

  it('users, account and settings only for administrators; reports for administrator and supervisor', () => {
    expect(linksOf('administrator')).toEqual(
      expect.arrayContaining(['/account/users', '/account', '/settings', '/settings/fiscal']),
    );
    for (const level of ['supervisor', 'user', 'customer'] as const) {
      expect(linksOf(level)).not.toContain('/account/users');
      expect(linksOf(level)).not.toContain('/account');
      expect(linksOf(level)).not.toContain('/settings');
      expect(linksOf(level)).not.toContain('/settings/fiscal');
    }
    expect(linksOf('supervisor')).toContain('/reports');
    expect(linksOf('user')).not.toContain('/reports');
    expect(linksOf('customer')).toEqual([]);
  });

  it('the longest prefix decides, and nested paths follow their area', () => {
    expect(actionForPath('/account/users')).toBe('users.manage');
    expect(actionForPath('/account')).toBe('account.manage');
    expect(actionForPath('/medications/edit/12')).toBe('inventory.read');
    expect(actionForPath('/supplies/edit/12')).toBe('inventory.read');
    expect(actionForPath('/supplies/create')).toBe('inventory.write');
    expect(actionForPath('/inventory/reorder')).toBe('inventory.read');
    expect(actionForPath('/patients/abc/mh')).toBe('patients.read');
    expect(actionForPath('/accounting')).toBeNull();
    expect(canOpen('user', '/medications')).toBe(true);
    expect(canOpen('user', '/medications/create')).toBe(false);
    // The item page opens read-only for a level without inventory.write.
    expect(canOpen('user', '/medications/edit/12')).toBe(true);
    expect(canOpen('customer', '/medications/edit/12')).toBe(false);
    expect(linksOf('user')).toContain('/inventory/reorder');
  });

  it('the inbox for every staff level (issue 38); the customer has none', () => {
    for (const level of ['administrator', 'supervisor', 'user'] as const) expect(linksOf(level)).toContain('/inbox');
    expect(canOpen('customer', '/inbox')).toBe(false);
    expect(canOpen('user', '/settings/messages')).toBe(false);
    expect(canOpen('administrator', '/settings/messages')).toBe(true);
  });

  it('every level may open its profile; the customer lands there', () => {
    for (const level of userLevels) expect(canOpen(level, '/profile')).toBe(can(level, 'profile.manage'));
    expect(homePathFor('customer')).toBe('/profile');
    expect(homePathFor('user')).toBe('/dashboard');
  });
});
