import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { encodeFunctionData, parseAbi, type Hex } from 'viem';
import { LOCAL_QNT_ADDRESS } from '../../apps/server/src/adapters/chains/local-qnt.ts';

const TRANSFER_ABI = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);
const ERC20_BALANCE_ABI = parseAbi(['function balanceOf(address account) view returns (uint256)']);

/** The e2e server's local Ethereum testnet (playwright.config.ts starts it; QNT lives there). */
export function ethereumRpcUrl(): string {
  const [ethereumPort] = (process.env.E2E_DEVCHAIN_PORTS ?? '').split(',');
  expect(ethereumPort, 'E2E_DEVCHAIN_PORTS is set by playwright.config.ts').toBeTruthy();
  return `http://127.0.0.1:${ethereumPort}`;
}

/** One JSON-RPC call to the local Ethereum testnet. */
export async function chainRpc<T>(request: APIRequestContext, method: string, params: unknown[]): Promise<T> {
  const response = await request.post(ethereumRpcUrl(), { data: { jsonrpc: '2.0', id: 1, method, params } });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** An address's QNT on the local Ethereum testnet, in wei, read over JSON-RPC (eth_call balanceOf). */
export async function qntBalanceOf(request: APIRequestContext, address: string): Promise<bigint> {
  const data = encodeFunctionData({ abi: ERC20_BALANCE_ABI, functionName: 'balanceOf', args: [address as Hex] });
  return BigInt(await chainRpc<Hex>(request, 'eth_call', [{ to: LOCAL_QNT_ADDRESS, data }, 'latest']));
}

/**
 * The customer (their access token) orders the annual plan paying in QNT, and `payer` (an anvil
 * account, unlocked on the local chains) sends the QNT due to the order's deposit address; answers
 * once the chain follower has settled the order and the plan is ACTIVE — a paid plan bought with
 * QNT, as rewards need. The wallet journey of the same payment is qnt-payment.spec.ts.
 */
export async function buyAnnualPlanWithQnt(request: APIRequestContext, token: string, payer: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const plans = (await (await request.get('/api/account-plan/v2/fetch-plans', { headers })).json()) as {
    groups: { tiers: { id: string; code: string }[] }[];
  };
  const annual = plans.groups.flatMap((group) => group.tiers).find((tier) => tier.code === 'annual-standard')!;
  const placed = await request.post('/api/account-plan/order/plan', {
    headers,
    data: JSON.stringify({
      idempotencyKey: randomUUID(),
      ratePlanId: annual.id,
      paymentMethod: 'QNT',
      terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
    }),
  });
  expect(placed.status(), await placed.text()).toBe(200);
  const order = (await placed.json()) as { qnt: { depositAddress: Hex; amountDue: string } | null };
  expect(order.qnt, 'a QNT order carries its deposit address').toBeTruthy();
  const data = encodeFunctionData({
    abi: TRANSFER_ABI,
    functionName: 'transfer',
    args: [order.qnt!.depositAddress, BigInt(order.qnt!.amountDue)],
  });
  await chainRpc(request, 'eth_sendTransaction', [{ from: payer, to: LOCAL_QNT_ADDRESS, data }]);
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/account-plan/subscription', { headers });
        const plan = (await response.json()) as { status: string; pendingOrder: unknown };
        return `${plan.status}${plan.pendingOrder ? ', an order pending' : ''}`;
      },
      { timeout: 60_000, message: 'the plan paid in QNT turns ACTIVE once the follower settles it' },
    )
    .toBe('ACTIVE');
}
