import { expect, type APIRequestContext } from '@playwright/test';
import { createWalletClient, erc20Abi, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createConfirmedUser, idp } from './identity.ts';

type Holding = { held: string; depositAddress: string | null };

/**
 * Resolves once the server's chain follower of QNT payments follows the local chain, so that a
 * journey's payment is seen.
 *
 * Why a journey needs it: the follower's runs start from pg-boss's minute schedule, 30–50 s after a
 * fresh server starts, and its very first step starts at the chain's head: a transfer mined before
 * that step is never seen. A journey that pays within the first minute of the e2e server (a spec run
 * alone) would wait for nothing. So a probe account of its own (signed up through the API) is sent
 * 1 wei of QNT from `probeKey` every few seconds until the follower has credited one of them.
 */
export async function untilQntPaymentsAreFollowed(
  request: APIRequestContext,
  chain: { rpcUrl: string; token: Address; probeKey: Hex },
): Promise<void> {
  const email = `qnt-probe-${Date.now()}@example.com`;
  const password = 'Qnt-Probe-Passw0rd!';
  await createConfirmedUser(request, email, password);
  const signIn = await idp(request, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const accessToken = ((await signIn.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult
    .AccessToken;

  const holding = async (): Promise<Holding> => {
    const response = await request.get('/api/account-plan/subscription', {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(response.status(), await response.text()).toBe(200);
    const { qnt } = (await response.json()) as { qnt?: Holding };
    expect(qnt?.depositAddress, 'QNT payments are on in the e2e server').toBeTruthy();
    return qnt!;
  };
  const { depositAddress } = await holding();
  const probe = createWalletClient({ account: privateKeyToAccount(chain.probeKey), transport: http(chain.rpcUrl) });

  await expect
    .poll(
      async () => {
        if (BigInt((await holding()).held) > 0n) return true;
        await probe.writeContract({
          chain: null,
          address: chain.token,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [depositAddress as Address, 1n],
        });
        return false;
      },
      { message: 'the QNT chain follower credits a probe transfer', timeout: 90_000, intervals: [3_000] },
    )
    .toBe(true);
}
