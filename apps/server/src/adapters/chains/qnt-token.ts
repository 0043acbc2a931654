import { parseAbi, toEventSelector, type Hex } from 'viem';
import { qntDeployData } from '@connect/contracts';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { DEPLOYER, LOCAL_QNT_ADDRESS } from './local-qnt.ts';
import { rpcCall } from './rpc.ts';

/**
 * The QNT ERC-20 on a local chain (QNT payments, issue 15). `npm start` deploys it on the local
 * Ethereum testnet when QNT_TOKEN_ADDRESS is unset (server.ts), and mints 1 000 000 QNT to each of
 * anvil's ten default accounts, so a newcomer who imports one of anvil's well-known keys into a
 * wallet can pay in QNT at once.
 *
 * anvil's last default account deploys it as its very first transaction (nonce 0), so the token
 * always has the same address: a start finds it there on a chain whose state persisted (under
 * DATA_DIR/chains) and deploys nothing. The platform never signs with that account otherwise
 * (its local deployer is a key of its own: platform-deployer.ts).
 */

/** What payments need of an ERC-20: transfer, balanceOf and the Transfer event. */
export const QNT_ABI = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** topic0 of an ERC-20 Transfer log: keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC: Hex = toEventSelector('Transfer(address,address,uint256)');

/** Minted to each of anvil's ten accounts: 1 000 000 QNT (18 decimals). */
export const LOCAL_QNT_PER_ACCOUNT = 10n ** 24n;

export { LOCAL_QNT_ADDRESS } from './local-qnt.ts';

/** A deployment is mined at once on the local chains; a chain that only mines every few seconds gets this long. */
const RECEIPT_WAIT_MS = 30_000;

/**
 * The QNT token's address on the local chain at `rpcUrl`: deployed now (and its receipt awaited)
 * unless its code is already there. Throws when the chain cannot deploy it at its usual address
 * (anvil's last account has already sent other transactions there) or the deployment fails.
 */
export async function ensureLocalQntToken(rpcUrl: string): Promise<Hex> {
  const call = <T>(method: string, params: unknown[]) => rpcCall<T>(rpcUrl, method, params, { timeoutMs: 10_000 });
  const code = await call<Hex>('eth_getCode', [LOCAL_QNT_ADDRESS, 'latest']);
  if (code.length > 2) return LOCAL_QNT_ADDRESS;

  const sent = BigInt(await call<Hex>('eth_getTransactionCount', [DEPLOYER, 'pending']));
  if (sent > 0n) {
    throw new Error(
      `anvil's account ${DEPLOYER} has already sent ${sent} transaction(s) on ${rpcUrl}, so the local QNT token ` +
        `cannot be deployed at ${LOCAL_QNT_ADDRESS}: set QNT_TOKEN_ADDRESS, or remove the chain's state file ` +
        `(DATA_DIR/chains) to start it afresh`,
    );
  }
  const hash = await call<Hex>('eth_sendTransaction', [
    {
      from: DEPLOYER,
      // Explicit: a second deployment sent by a concurrent start is refused instead of landing elsewhere.
      nonce: '0x0',
      data: qntDeployData(
        DEV_ACCOUNTS.map((account) => account.address),
        LOCAL_QNT_PER_ACCOUNT,
      ),
    },
  ]);
  const deadline = Date.now() + RECEIPT_WAIT_MS;
  for (;;) {
    const receipt = await call<{ status: Hex; contractAddress: Hex | null } | null>('eth_getTransactionReceipt', [
      hash,
    ]);
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`the local QNT token's deployment ${hash} failed on ${rpcUrl}`);
      return LOCAL_QNT_ADDRESS;
    }
    if (Date.now() > deadline) throw new Error(`the local QNT token's deployment ${hash} was not mined on ${rpcUrl}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
