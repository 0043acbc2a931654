import { createPortalUser, hasAdministrator } from './repositories/portal-users.ts';
import type { Deps } from './types.ts';

/**
 * First start: make sure an administrator (QUANT_ADMIN) exists. With ADMIN_EMAIL/ADMIN_PASSWORD
 * the password is used as given; otherwise a temporary password is generated and printed once,
 * and the first sign-in asks for a new one (NEW_PASSWORD_REQUIRED).
 */
export async function ensureAdministrator(deps: Deps, print: (line: string) => void): Promise<void> {
  if (await hasAdministrator(deps.db)) return;
  const email = (deps.config.adminEmail ?? 'admin@connect.localhost').toLowerCase();
  let identity = await deps.identityAdmin.getUser(email);
  let temporaryPassword: string | undefined;
  if (!identity) {
    const created = await deps.identityAdmin.createUser(
      deps.config.adminPassword
        ? { email, password: deps.config.adminPassword, permanent: true, groups: ['QUANT_ADMIN'] }
        : { email, groups: ['QUANT_ADMIN'] },
    );
    identity = created.user;
    if (!deps.config.adminPassword) temporaryPassword = created.password;
  }
  await createPortalUser(deps.db, deps.events, { id: identity.sub, email, role: 'QUANT_ADMIN', addedBy: 'system' });
  if (temporaryPassword) {
    print('');
    print('  Administrator account created (shown once):');
    print(`    email:              ${email}`);
    print(`    temporary password: ${temporaryPassword}`);
    print('  Sign in with these; you will be asked to choose a new password.');
    print('');
  }
}
