import type { RouteItem, TUser } from '@connect/shared';
import { isProfileComplete } from '@connect/shared/light';
import { BLANK_PATHS, isPublicPath, paths, SIGNED_IN_HOME, stripTrailingSlash } from '../config/paths.ts';
import { mustSetUpMfa } from '../lib/staff-mfa.ts';

/** Pages every visitor may open, signed in or not. */
const NEUTRAL_PATHS: readonly string[] = [paths.notFound, paths.notFoundAlias, paths.devMailbox];

export type GateInput = {
  pathname: string;
  hasSession: boolean;
  /** Loads the user and the role-based routes (cached after the first navigation). */
  load: () => Promise<{ user: TUser; routes: RouteItem[] }>;
  /** Removes the session marker and signs out (spec §4 step 4 failure). */
  endSession: () => Promise<void>;
};

export type GateResult = { redirect: string } | { allow: true; user?: TUser; routes?: RouteItem[] };

function matches(pattern: string, pathname: string): boolean {
  const a = pattern.split('/').filter(Boolean);
  const b = pathname.split('/').filter(Boolean);
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i]);
}

/** True when the pathname is one of the routes the server granted (children included). */
export function isRouteAllowed(routes: RouteItem[], pathname: string): boolean {
  return routes.some((route) => matches(route.path, pathname) || isRouteAllowed(route.children ?? [], pathname));
}

/**
 * Whether a first load at `pathname` will most likely render inside the signed-in frame: with a
 * session, every page but the neutral ones and the blank-layout steps does (a public page sends a
 * signed-in user to the dashboard). Decides what the start shows while the gate below runs
 * (app/router.tsx); the gate still decides where the user goes.
 */
export function startsInFrame(pathname: string, hasSession: boolean): boolean {
  const path = stripTrailingSlash(pathname);
  return hasSession && !NEUTRAL_PATHS.includes(path) && !BLANK_PATHS.includes(path);
}

/**
 * Route gating of spec §4, in order, on every navigation: no session → public pages only; a
 * session on a public page → the signed-in home; load the user and routes once (failure ends the
 * session); then the terms, profile and bypass guards of spec §5 (and staff MFA, issue 32 §1);
 * then the route must be one the server granted for the user's role and features, else 404.
 */
export async function gate(input: GateInput): Promise<GateResult> {
  const pathname = stripTrailingSlash(input.pathname);
  if (NEUTRAL_PATHS.includes(pathname)) return { allow: true };
  if (!input.hasSession) return isPublicPath(pathname) ? { allow: true } : { redirect: paths.login };
  if (isPublicPath(pathname)) return { redirect: SIGNED_IN_HOME };

  let loaded: { user: TUser; routes: RouteItem[] };
  try {
    loaded = await input.load();
  } catch {
    await input.endSession();
    return { redirect: paths.login };
  }
  const { user, routes } = loaded;

  // Terms: every page but the terms page itself until the latest version is accepted.
  if (!user.acceptedTerms)
    return pathname === paths.termsConditions ? { allow: true, user, routes } : { redirect: paths.termsConditions };
  // Profile (individual role): every page but /user-details until the five fields are filled.
  const needsProfile = user.role === 'INDIVIDUAL' && !isProfileComplete(user);
  if (needsProfile)
    return pathname === paths.userDetails ? { allow: true, user, routes } : { redirect: paths.userDetails };
  // Staff MFA (issue 32 §1, beyond the spec): a staff user without an authenticator app sets one
  // up before any other page, and cannot skip it.
  if (mustSetUpMfa(user))
    return pathname === paths.mfaSetup ? { allow: true, user, routes } : { redirect: paths.mfaSetup };
  // Bypass: blank-layout pages whose job is already done go to the dashboard.
  if (pathname === paths.termsConditions) return { redirect: paths.dashboard };
  if (pathname === paths.userDetails && isProfileComplete(user)) return { redirect: paths.dashboard };
  if (pathname === paths.mfaSetup)
    return user.mfaSetup && user.mfaConfirm ? { redirect: paths.dashboard } : { allow: true, user, routes };
  if (BLANK_PATHS.includes(pathname)) return { allow: true, user, routes };

  return isRouteAllowed(routes, pathname) ? { allow: true, user, routes } : { redirect: paths.notFound };
}
