import { ROUTE_CATEGORIES, type RouteItem } from '@connect/shared';

export type RouteCategory = (typeof ROUTE_CATEGORIES)[number];

/** One side-menu entry derived from a route of the server's list. */
export type MenuEntry = {
  key: string;
  title: string;
  tooltip?: string;
  icon?: string;
  /** The router path, or the external address for links that leave the portal. */
  to: string;
  isExternal: boolean;
  /** The area is not built yet: the menu marks it "Soon" (its page says it is coming). */
  isComingSoon: boolean;
  /** Visible children: a sub-menu (one level; deeper visible children are not part of the menu). */
  children: MenuEntry[];
};

export type MenuSection = { category: RouteCategory; entries: MenuEntry[] };

const isInMenu = (route: RouteItem) => !route.hidden && !route.notInMenu;

/** Spec §2.2: an item with an external address, or whose link starts with http, opens in a new tab. */
export function isExternalRoute(route: Pick<RouteItem, 'path' | 'href'>): boolean {
  return Boolean(route.href) || /^https?:\/\//i.test(route.path);
}

/** Routes without an order go last, keeping the server's order among themselves (sort is stable). */
const byOrder = (a: RouteItem, b: RouteItem) => (a.order ?? Infinity) - (b.order ?? Infinity);

function toEntry(route: RouteItem, withChildren: boolean): MenuEntry {
  const isExternal = isExternalRoute(route);
  return {
    key: route.name || route.path,
    title: route.title,
    ...(route.tooltip ? { tooltip: route.tooltip } : {}),
    ...(route.icon ? { icon: route.icon } : {}),
    to: isExternal ? (route.href ?? route.path) : route.path,
    isExternal,
    isComingSoon: Boolean(route.comingSoon),
    children: withChildren
      ? (route.children ?? [])
          .filter(isInMenu)
          .sort(byOrder)
          .map((child) => toEntry(child, false))
      : [],
  };
}

/**
 * The side menu of spec §2.2 from the server's route list: routes that are hidden or not in the
 * menu are left out, the rest grouped by category (Core, Developer Hub, Connect Admin, in that
 * order; a route without one counts as Core) and ordered by their order value, so beta (0) sits
 * above the dashboard (1). Empty categories are not shown.
 */
export function menuSections(routes: RouteItem[]): MenuSection[] {
  const visible = routes.filter(isInMenu);
  return ROUTE_CATEGORIES.map((category) => ({
    category,
    entries: visible
      .filter((route) => (route.category ?? 'Core') === category)
      .sort(byOrder)
      .map((route) => toEntry(route, true)),
  })).filter((section) => section.entries.length > 0);
}

/** The entry's page or one below it is open (an external link never is). */
export function isEntryActive(entry: Pick<MenuEntry, 'to' | 'isExternal'>, pathname: string): boolean {
  if (entry.isExternal) return false;
  const path = entry.to.replace(/\/+$/, '');
  const current = pathname.replace(/\/+$/, '') || '/';
  return current === path || current.startsWith(`${path}/`);
}
