import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accountNetworks, networks, users } from '@connect/db';
import { ZCreateApplicationResponse, type ApplicationType, type TCreateApplicationResponse } from '@connect/shared';
import { signInAs, type TestContext } from '../../../test/helpers.ts';
import { PLENTY, setAllowances } from '../../../test/plans.ts';

/** Test set-up shared by the application-manager and gateway suites (not used by the app). */

export type TestUser = Awaited<ReturnType<typeof signInAs>> & { accountId: string };

/** A signed-in user whose portal user and account exist (the first request creates them). */
export async function newAppUser(t: TestContext): Promise<TestUser> {
  const session = await signInAs(t);
  const res = await t.app.inject({ method: 'GET', url: `/api/connect/user/${session.sub}`, headers: session.headers });
  if (res.statusCode !== 200) throw new Error(`user set-up failed: ${res.statusCode} ${res.body}`);
  const [row] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
  return { ...session, accountId: row!.accountId };
}

/**
 * Lifts the plan's applications allowance and gateway rate limit of an account (suites that
 * create many applications and call the gateway often). The plan's rate is the only one the
 * gateway enforces; a network's own `rateLimit` (see `addNetwork`) is neither enforced nor shown.
 */
export async function liftPlanLimits(t: TestContext, accountId: string): Promise<void> {
  await setAllowances(t.db.db, accountId, { applications: PLENTY, rateLimit: PLENTY });
}

/** A catalogue network of its own (unique code), optionally pointing at a real RPC endpoint. */
export async function addNetwork(
  t: TestContext,
  input: {
    networkType?: ApplicationType;
    rpcUrl?: string | null;
    rateLimit?: number;
    chainId?: number;
    name?: string;
  } = {},
) {
  const code = `test-${randomUUID().slice(0, 8)}`;
  const [row] = await t.db.db
    .insert(networks)
    .values({
      code,
      name: input.name ?? `Test network ${code.slice(5)}`,
      networkType: input.networkType ?? 'testnet',
      technology: 'Ethereum',
      chainId: input.chainId ?? 31_337,
      rpcUrl: input.rpcUrl === undefined ? 'http://127.0.0.1:1' : input.rpcUrl,
      rateLimit: input.rateLimit ?? 25,
      isLocal: true,
    })
    .returning();
  return row!;
}

/** Activates networks for an account, as My networks would. */
export async function activate(t: TestContext, accountId: string, ...networkIds: string[]) {
  await t.db.db
    .insert(accountNetworks)
    .values(networkIds.map((networkId) => ({ accountId, networkId })))
    .onConflictDoNothing();
}

/** Registers a testnet application of the user's for the networks (the registration stepper's call). */
export async function createApplication(
  t: TestContext,
  user: TestUser,
  networkIds: string[],
  name = `Test app ${Math.random().toString(36).slice(2, 8)}`,
): Promise<TCreateApplicationResponse> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/application-manager/create-application/',
    headers: user.headers,
    payload: { name, callbackUrl: 'https://example.com/cb', applicationType: 'testnet', networkIds },
  });
  if (res.statusCode !== 201) throw new Error(`application set-up failed: ${res.statusCode} ${res.body}`);
  return ZCreateApplicationResponse.parse(res.json());
}

/** Issues a new client secret; the old one keeps working for `gracePeriodMinutes` (0: revoked now). */
export function rotateSecret(t: TestContext, user: TestUser, applicationId: string, gracePeriodMinutes: number) {
  return t.app.inject({
    method: 'POST',
    url: `/api/application-manager/application/${applicationId}/rotate-secret`,
    headers: user.headers,
    payload: { gracePeriodMinutes },
  });
}
