import { createKeccak } from 'hash-wasm';
import { bytesToHex, hexToBytes, serializeTransaction, type Hex, type TransactionSerializable } from 'viem';
import { privateKeyToAddress, sign } from 'viem/accounts';

/**
 * Signs transactions with a local private key, exactly as viem's `privateKeyToAccount(key)
 * .signTransaction` does (signer.test.ts compares them), and answers the transaction's hash too.
 * The difference is the hash function: keccak-256 runs in WebAssembly (hash-wasm). A deployment
 * hashes its 3–10 KB of data twice (what is signed, then the transaction's hash) on the critical
 * path of POST /v2/token: signing a 5.8 KB deployment takes 0.53 ms with hash-wasm, 0.85 ms with
 * the shared pure-TypeScript keccak and 1.23 ms with viem's own account. Everything else hashes
 * with `keccak256Hex` of @connect/shared (address checksums, in the web and here); its header says
 * why these two remain and nothing else.
 */
export type TxSigner = {
  readonly address: Hex;
  /** The signed raw transaction (as for eth_sendRawTransaction) and its hash. */
  signTransaction(tx: TransactionSerializable): Promise<{ raw: Hex; hash: Hex }>;
};

// One hasher per process: init() resets it, and nothing awaits between init and digest.
const hasher = await createKeccak(256);

/** Keccak-256 in WebAssembly: the signer's hash, for transactions only (see above). */
export function keccak256Fast(data: Hex): Hex {
  hasher.init();
  hasher.update(hexToBytes(data));
  return bytesToHex(hasher.digest('binary'));
}

export function createSigner(privateKey: Hex): TxSigner {
  return {
    // Deriving the address costs a public-key computation: once per signer.
    address: privateKeyToAddress(privateKey),
    async signTransaction(tx) {
      const signature = await sign({ hash: keccak256Fast(serializeTransaction(tx)), privateKey });
      const raw = serializeTransaction(tx, signature);
      return { raw, hash: keccak256Fast(raw) };
    },
  };
}
