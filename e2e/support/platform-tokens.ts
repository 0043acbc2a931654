import { expect, type APIRequestContext } from '@playwright/test';
import { TEST_WALLET_ADDRESS } from '@connect/devchain';

type TierType = 'base' | 'flex' | 'vari';

/**
 * Deploys a QRC20 token through the platform (deployment type QUANT) on the user's first network,
 * through the API calls the token form makes: a set-up step for journeys that need tokens (a used-up
 * quota, credits spent) without walking the form again. The tier's credits are taken (base 10,
 * flex 20, vari 30). `n` makes the name and symbol unique within a journey.
 */
export async function deployPlatformToken(
  request: APIRequestContext,
  accessToken: string,
  { tier, n, label }: { tier: TierType; n: number; label: string },
): Promise<void> {
  const headers = { authorization: `Bearer ${accessToken}` };
  const { locations } = (await (await request.get('/api/tokenise/v2/orchestration/locations', { headers })).json()) as {
    locations: { networkId: string }[];
  };
  const networkId = locations[0]!.networkId;
  const { tiers } = (await (
    await request.get(`/api/tokenise/v2/orchestration/tiers?networkId=${networkId}&tokenType=QRC20`, { headers })
  ).json()) as { tiers: { id: string; type: string }[] };
  const chosen = tiers.find((candidate) => candidate.type === tier)!;
  // Flex and Vari have a minter and a maximum supply; Vari an owner too.
  const minting = tier === 'base' ? {} : { minter: TEST_WALLET_ADDRESS, maxSupply: 1_000, remintable: false };
  const owned = tier === 'vari' ? { ownerAddress: TEST_WALLET_ADDRESS } : {};
  const created = await request.post('/api/tokenise/v2/token', {
    headers,
    data: {
      externalId: `${label.toLowerCase().replaceAll(' ', '-')}-${Date.now()}-${n}`,
      networkId,
      tierId: chosen.id,
      tokenType: 'QRC20',
      deploymentType: 'QUANT',
      name: `${label} ${n}`,
      unit: `${label.replaceAll(' ', '').slice(0, 4).toUpperCase()}${n}`,
      decimal: 0,
      initialSupply: 1,
      supplyHolderAddress: TEST_WALLET_ADDRESS,
      ...minting,
      ...owned,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
}
