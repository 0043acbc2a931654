import type { TransactionSerializable } from 'viem';
import { RpcError } from '../rpc.ts';
import type { TxSigner } from '../signer.ts';
import type { NonceManager } from './nonces.ts';
import { storeThenSend } from './store-send.ts';
import type { RpcCaller, SenderNetwork, SignedPlatformTx, TxFields } from './types.ts';

/** JSON-RPC error texts that mean "this nonce cannot be used": resync and sign again. */
const NONCE_ERROR = /nonce too low|nonce too high|invalid nonce|replacement transaction underpriced|already imported/i;
/** Sends signed again after a nonce error before the node's refusal is final. */
const NONCE_ATTEMPTS = 5;

/** One transaction for the platform to sign and send (PlatformSender.send). */
export type SendRequest = {
  network: SenderNetwork;
  signer: TxSigner;
  /** What it is for (`<owner>:<id>`, e.g. `token:<id>`); a caller's `store` may name it itself. */
  reference: string;
  fields: TxFields;
  /**
   * The last word before sending, inside the nonce's turn: undefined sends what was signed;
   * other fields are signed instead with the same nonce; a throw sends nothing (and is rethrown).
   */
  confirm?: (() => Promise<TxFields | undefined>) | undefined;
  /**
   * Stores the signed transaction, with whatever the caller claims with it, in one statement of
   * its own; false refuses it (nothing is sent, the nonce stays free). Default: the sender stores it.
   */
  store?: ((tx: SignedPlatformTx) => Promise<boolean>) | undefined;
  /** Undoes `store` for a transaction that is not going to be sent. */
  release?: ((tx: SignedPlatformTx) => Promise<void>) | undefined;
  /** The caller's JSON-RPC calls (e.g. ended by its own stop); default: the sender's. */
  call?: RpcCaller | undefined;
};

/** The node took it, or may have (`ambiguous`: a timeout; it is followed all the same). */
export type Sent = { tx: SignedPlatformTx; ambiguous: boolean };

/**
 * Signs with the key's next nonce, stores, then sends — in the nonce's turn, so concurrent sends of
 * one key get consecutive nonces. A nonce the node refuses (another process used the key) is read
 * again from the chain and the transaction signed again. Answers null when `store` refused it;
 * throws the node's RpcError when it refuses the transaction otherwise.
 */
export async function sendInTurn(
  manager: NonceManager,
  call: RpcCaller,
  request: SendRequest & Required<Pick<SendRequest, 'store' | 'release'>>,
): Promise<Sent | null> {
  const { network, signer, reference, fields, confirm, store, release } = request;
  const sign = async (what: TxFields, nonce: bigint): Promise<SignedPlatformTx> => ({
    networkId: network.id,
    from: signer.address,
    nonce,
    reference,
    ...(await signer.signTransaction(serializable(network.chainId, what, nonce))),
  });
  for (let attempt = 1; ; attempt++) {
    const state: { ambiguous: boolean; failed?: { error: unknown } } = { ambiguous: false };
    try {
      const tx = await manager.withNonce<SignedPlatformTx | null>(async (nonce) => {
        const result = await storeThenSend(call, await sign(fields, nonce), {
          store,
          release,
          confirm: confirm
            ? async (signed) => {
                const other = await confirm();
                return other ? sign(other, nonce) : signed;
              }
            : undefined,
        });
        if (result.outcome === 'refused') return { used: false, value: null };
        if (result.outcome === 'not-sent') {
          state.failed = { error: result.error };
          return { used: false, value: null };
        }
        // The node may have taken it: keep it and follow it; recount the nonce.
        if (result.outcome === 'ambiguous') state.ambiguous = true;
        return { used: true, value: result.tx };
      });
      if (state.failed) throw state.failed.error;
      if (state.ambiguous) manager.resync();
      return tx && { tx, ambiguous: state.ambiguous };
    } catch (err) {
      // The manager has resynced: the next turn reads the chain's nonce.
      if (err instanceof RpcError && err.kind === 'RPC' && NONCE_ERROR.test(err.message) && attempt < NONCE_ATTEMPTS) {
        continue;
      }
      throw err;
    }
  }
}

/** The transaction to sign: the fields with the chain and the nonce. */
export function serializable(chainId: number, fields: TxFields, nonce: bigint): TransactionSerializable {
  const { to, data, value, gas, fees } = fields;
  return {
    chainId,
    nonce: Number(nonce),
    gas,
    ...(to ? { to } : {}),
    ...(data ? { data } : {}),
    ...(value ? { value } : {}),
    ...('gasPrice' in fees ? { type: 'legacy' as const, ...fees } : { type: 'eip1559' as const, ...fees }),
  };
}
