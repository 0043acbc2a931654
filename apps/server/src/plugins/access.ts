import fp from 'fastify-plugin';
import { ROLE_GROUP_NAMES, roleInGroups, type RoleGroup } from '@connect/shared';
import { forbidden } from '../lib/errors.ts';

/**
 * Every route declares who may call it:
 * - 'public': anyone;
 * - 'user': any signed-in portal user;
 * - { groups: [...] }: a signed-in user whose role is in one of the access groups of spec §6.
 */
export type Access = 'public' | 'user' | { groups: RoleGroup[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every route registered, with its declared access; walked by the deny-by-default test. */
    routeAccess: RouteAccess[];
  }
}

export type RouteAccess = { method: string; url: string; readonly access: Access | undefined };

export function describeAccess(access: Access): string {
  if (typeof access === 'string') return access;
  return `user:${access.groups.join('|')}`;
}

function isValidAccess(access: unknown): access is Access {
  if (access === 'public' || access === 'user') return true;
  if (!access || typeof access !== 'object') return false;
  const groups = (access as { groups?: unknown }).groups;
  return (
    Array.isArray(groups) &&
    groups.length > 0 &&
    groups.every((g) => (ROLE_GROUP_NAMES as string[]).includes(g as string))
  );
}

/**
 * Deny by default: a route that declares no valid access level stops the server at start-up,
 * and every request to a non-public route is authenticated (see plugins/auth.ts) before its
 * handler runs.
 */
export const accessPlugin = fp(
  async (app) => {
    app.decorate('routeAccess', []);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        // Read lazily: a scope's own onRoute hook (the docs scope) may declare access after this one.
        app.routeAccess.push({
          method,
          url: route.url,
          get access() {
            return route.config?.access;
          },
        });
      }
    });
    app.addHook('onReady', async () => {
      const undeclared = app.routeAccess.filter((r) => !isValidAccess(r.access));
      if (undeclared.length) {
        throw new Error(
          `Routes without a valid access level (deny-by-default): ${undeclared
            .map((r) => `${r.method} ${r.url}`)
            .join(', ')}`,
        );
      }
    });
    app.addHook('onRequest', async (request) => {
      if (request.is404) return;
      const access = request.routeOptions.config.access;
      if (access === 'public') return;
      // An undeclared access level never reaches here (onReady refuses to start); be safe anyway.
      if (!access) throw forbidden();
      const user = await app.authenticate(request);
      if (typeof access === 'object') {
        if (!roleInGroups(user.role, access.groups)) throw forbidden();
        // A staff console call (no 'general' group): staff must have set up MFA first.
        if (!access.groups.includes('general')) await app.requireStaffMfa(user);
      }
    });
  },
  { name: 'access', dependencies: ['auth'] },
);
