/**
 * Cookie consent (spec §2.2 footer, §9 categories). The choice is kept in a cookie, not in local
 * storage: signing out clears local storage (spec §4), and the banner must not ask again after
 * every sign-out.
 */
export const COOKIE_CATEGORIES = {
  necessary: 1,
  functionality: 2,
  experience: 3,
  measurement: 4,
  marketing: 5,
} as const;
export type CookieCategoryName = keyof typeof COOKIE_CATEGORIES;
export type CookieCategory = (typeof COOKIE_CATEGORIES)[CookieCategoryName];

export const CONSENT_COOKIE = 'cookie_consent';
/** One year. */
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const ALL: readonly number[] = Object.values(COOKIE_CATEGORIES);
export const ALL_CATEGORIES = Object.values(COOKIE_CATEGORIES) as CookieCategory[];

/** The chosen categories, or null when the visitor has not chosen (or the cookie is unreadable). */
export function readConsent(cookies: string = document.cookie): CookieCategory[] | null {
  const entry = cookies
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONSENT_COOKIE}=`));
  if (!entry) return null;
  try {
    const value: unknown = JSON.parse(decodeURIComponent(entry.slice(CONSENT_COOKIE.length + 1)));
    if (!Array.isArray(value) || !value.every((item) => ALL.includes(item as number))) return null;
    // Necessary cookies cannot be refused; a value without them was not written by this code.
    if (!value.includes(COOKIE_CATEGORIES.necessary)) return null;
    return value as CookieCategory[];
  } catch {
    return null;
  }
}

/** Stores the choice for a year; necessary cookies are always included. */
export function writeConsent(categories: readonly CookieCategory[]): CookieCategory[] {
  const chosen = [...new Set<CookieCategory>([COOKIE_CATEGORIES.necessary, ...categories])].sort((a, b) => a - b);
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${CONSENT_COOKIE}=${encodeURIComponent(JSON.stringify(chosen))}; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
  for (const listener of [...consentListeners]) listener(chosen);
  return chosen;
}

const consentListeners = new Set<(categories: CookieCategory[]) => void>();

/**
 * Calls `listener` with every choice written from now on (a first choice, or a change made later
 * from the footer's cookie settings); answers the function that stops it. The outside tools start
 * and stop on it (lib/outside-tools).
 */
export function onConsentChange(listener: (categories: CookieCategory[]) => void): () => void {
  consentListeners.add(listener);
  return () => consentListeners.delete(listener);
}

const choiceRequests = new Set<() => void>();

/** Opens the cookie choices again (the footer's "Cookie settings"), so a visitor can change or withdraw consent. */
export function requestCookieChoices(): void {
  for (const listener of [...choiceRequests]) listener();
}

/** The cookie banner listens for requests to open its dialog. */
export function onCookieChoicesRequest(listener: () => void): () => void {
  choiceRequests.add(listener);
  return () => choiceRequests.delete(listener);
}

/** Whether a category may be used; code that adds optional cookies asks this first. */
export function hasConsent(category: CookieCategory, cookies?: string): boolean {
  return readConsent(cookies)?.includes(category) ?? false;
}
