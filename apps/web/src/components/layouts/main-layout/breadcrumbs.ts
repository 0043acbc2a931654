import type { RouteItem } from '@connect/shared';

export type Crumb = {
  label: string;
  /** The path up to and including this segment. */
  path: string;
  /** The last crumb: the page being shown. */
  isCurrent: boolean;
};

/**
 * Segments whose spelling spec §2.2 fixes: product and acronym names that the general rule
 * ("first letter capitalised") would get wrong. Matched case-insensitively.
 */
const SPECIAL_SEGMENTS: Readonly<Record<string, string>> = {
  seeq: 'SeeQ',
  faq: 'FAQ',
  kyc: 'KYC',
  qrc20: 'QRC20',
  qrc721: 'QRC721',
};

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape (a hand-typed URL): show it as typed rather than fail the whole frame.
    return segment;
  }
}

/** Spec §2.2: hyphens become spaces and the first letter is capitalised; SeeQ and FAQ as named (and the acronyms KYC, QRC20, QRC721). */
export function crumbLabel(segment: string): string {
  const text = decode(segment);
  const special = SPECIAL_SEGMENTS[text.toLowerCase()];
  if (special) return special;
  const spaced = text.replace(/-/g, ' ');
  return spaced.charAt(0).toLocaleUpperCase('en') + spaced.slice(1);
}

/** One crumb per path segment; the last is the current page. */
export function breadcrumbsFor(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  return segments.map((segment, index) => ({
    label: crumbLabel(segment),
    path: `/${segments.slice(0, index + 1).join('/')}`,
    isCurrent: index === segments.length - 1,
  }));
}

function matchesPattern(pattern: string, path: string): boolean {
  const a = pattern.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i]);
}

/**
 * True when `path` is a page of the user's route list (children included, `:params` matched).
 * Crumbs link only to such pages: many intermediate segments (`/invoices`, `/account-plan`) are
 * not pages, and a link to them would end on the 404 page.
 */
export function isKnownPath(routes: RouteItem[], path: string): boolean {
  return routes.some(
    (route) => (!route.href && matchesPattern(route.path, path)) || isKnownPath(route.children ?? [], path),
  );
}
