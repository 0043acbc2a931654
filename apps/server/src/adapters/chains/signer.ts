import { hexToBytes, serializeTransaction, type Hex, type TransactionSerializable } from 'viem';
import { privateKeyToAddress, sign } from 'viem/accounts';
import { keccak256Hex } from '@connect/shared';

/**
 * Signs transactions with a local private key, exactly as viem's `privateKeyToAccount(key)
 * .signTransaction` does (signer.test.ts compares them), and answers the transaction's hash too.
 * It hashes with the project's one keccak-256 (`keccak256Hex`, packages/shared/src/keccak.ts):
 * signing a 5.8 KB deployment takes 0.85 ms with it against 1.23 ms with viem's own account. A
 * WebAssembly keccak (hash-wasm) signed in 0.53 ms, but 0.3 ms of a deployment's ~8 ms is below
 * bench:tokens' noise (the server's clock counts whole milliseconds), so one implementation it is.
 */
export type TxSigner = {
  readonly address: Hex;
  /** The signed raw transaction (as for eth_sendRawTransaction) and its hash. */
  signTransaction(tx: TransactionSerializable): Promise<{ raw: Hex; hash: Hex }>;
};

/** Keccak-256 of hex data, as hex. */
export function keccak256(data: Hex): Hex {
  return `0x${keccak256Hex(hexToBytes(data))}`;
}

export function createSigner(privateKey: Hex): TxSigner {
  // Deriving the address costs a public-key computation (the first one also secp256k1's tables,
  // ~60 ms of a start; issue 30): once per signer, when first asked for.
  let address: Hex | undefined;
  return {
    get address() {
      return (address ??= privateKeyToAddress(privateKey));
    },
    async signTransaction(tx) {
      const signature = await sign({ hash: keccak256(serializeTransaction(tx)), privateKey });
      const raw = serializeTransaction(tx, signature);
      return { raw, hash: keccak256(raw) };
    },
  };
}
