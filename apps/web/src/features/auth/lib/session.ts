import type { TUser } from '@connect/shared';

/**
 * Stores the session marker once signed in (lib/current-user.ts). That module brings the user's
 * full zod schemas and queries, so the public pages load it only when someone has signed in.
 */
export async function startSession(userUuid: string): Promise<TUser> {
  const currentUser = await import('../../../lib/current-user.ts');
  return currentUser.startSession(userUuid);
}
