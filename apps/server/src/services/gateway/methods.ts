/**
 * Which JSON-RPC calls the gateway forwards (issue 11 §2), decided here once: the gateway's
 * decision (decision.ts) screens every request's calls with it, for the route and the fast path.
 *
 * Hosted RPC providers answer the standard read methods and eth_sendRawTransaction, never the
 * node's own accounts, its admin, debug and mempool namespaces or a dev chain's cheat codes: on
 * the local chains anvil's unlocked accounts would let any application send as them
 * (eth_sendTransaction) or mint itself ether (anvil_setBalance). Every method not named here is
 * refused with -32601, also inside a batch, and log queries span at most MAX_LOG_BLOCKS blocks.
 * The check is a Set look-up per call and allocates nothing when every call passes.
 */

/** JSON-RPC calls one batch may carry (a longer batch is refused whole, HTTP 400). */
export const MAX_BATCH = 100;
/** Blocks one eth_getLogs or eth_newFilter may span, fromBlock and toBlock included. */
export const MAX_LOG_BLOCKS = 10_000;

/** JSON-RPC error codes the gateway answers with itself (EIP-1474). */
const METHOD_NOT_ALLOWED = -32601;
const INVALID_PARAMS = -32602;
const LIMIT_EXCEEDED = -32005;

const ALLOWED_METHODS: ReadonlySet<string> = new Set([
  // The node and the chain.
  'web3_clientVersion',
  'web3_sha3',
  'net_version',
  'net_listening',
  'net_peerCount',
  'eth_chainId',
  'eth_blockNumber',
  'eth_syncing',
  'eth_protocolVersion',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_blobBaseFee',
  // State, blocks and transactions.
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getProof',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  // Simulation (nothing is signed or kept) and a transaction the caller signed itself.
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_sendRawTransaction',
  // Logs and filters (eth_getLogs and eth_newFilter with a bounded range, see rangeRefusal).
  'eth_getLogs',
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
]);

/** The methods whose first parameter is a log filter with a block range. */
const RANGED_METHODS: ReadonlySet<string> = new Set(['eth_getLogs', 'eth_newFilter']);

type Call = { method: string; params?: unknown; id?: unknown };
type RpcError = { code: number; message: string };
/** The gateway's own JSON-RPC answer to a call it does not forward. */
export type RpcErrorAnswer = { jsonrpc: '2.0'; id: unknown; error: RpcError };

/** A request the gateway does not forward as it came: the calls it forwards and its own answers. */
export type Screening = {
  /** The calls to forward, in their order; empty when every call is refused. */
  forward: unknown[];
  /** Answers to refused calls (a refused notification, without an id, gets none, as JSON-RPC wants). */
  refusals: RpcErrorAnswer[];
};

/** screenCalls' answer when a log query can be bounded only with the chain's current block number. */
export const NEEDS_HEAD = Symbol('needs the chain head');

function isCall(value: unknown): value is Call {
  return Boolean(value) && typeof value === 'object' && typeof (value as { method?: unknown }).method === 'string';
}

/** Number of calls in a JSON-RPC request (1 for a single call, n for a batch), or null when malformed or too long. */
export function countCalls(body: unknown): number | null {
  if (Array.isArray(body)) {
    if (body.length === 0 || body.length > MAX_BATCH || !body.every(isCall)) return null;
    return body.length;
  }
  return isCall(body) ? 1 : null;
}

/**
 * What the gateway does with a well-formed request (countCalls is not null): null when every call
 * is forwarded as it came (the usual case, decided without allocating), else the calls to forward
 * and the refusals to answer. Without `head` (the chain's current block number) it answers
 * NEEDS_HEAD when a log query runs between a block number and a tag such as 'latest'.
 */
export function screenCalls(body: unknown, head: bigint): Screening | null;
export function screenCalls(body: unknown): Screening | typeof NEEDS_HEAD | null;
export function screenCalls(body: unknown, head?: bigint): Screening | typeof NEEDS_HEAD | null {
  if (!Array.isArray(body)) {
    const refusal = refusalOf(body as Call, head);
    if (refusal === null || refusal === NEEDS_HEAD) return refusal;
    return { forward: [], refusals: 'id' in (body as Call) ? [answer(body as Call, refusal)] : [] };
  }
  let screening: Screening | null = null;
  for (let i = 0; i < body.length; i++) {
    const call = body[i] as Call;
    const refusal = refusalOf(call, head);
    if (refusal === NEEDS_HEAD) return NEEDS_HEAD;
    if (refusal === null) {
      screening?.forward.push(call);
      continue;
    }
    screening ??= { forward: body.slice(0, i), refusals: [] };
    if ('id' in call) screening.refusals.push(answer(call, refusal));
  }
  return screening;
}

function answer(call: Call, error: RpcError): RpcErrorAnswer {
  return { jsonrpc: '2.0', id: call.id, error };
}

/** Why the gateway answers the call itself, or null when it forwards it. */
function refusalOf(call: Call, head: bigint | undefined): RpcError | typeof NEEDS_HEAD | null {
  const method = call.method;
  if (!ALLOWED_METHODS.has(method)) {
    const name = method.length > 64 ? `${method.slice(0, 64)}…` : method;
    return {
      code: METHOD_NOT_ALLOWED,
      message: `Method not found or not allowed: ${name}. The gateway forwards the standard read methods, eth_call, eth_estimateGas, eth_sendRawTransaction, logs and filters.`,
    };
  }
  return RANGED_METHODS.has(method) ? rangeRefusal(method, call.params, head) : null;
}

/** A block a filter names: a number, the head ('latest', 'safe', 'finalized', 'pending'), or null when unreadable. */
function blockOf(value: unknown): bigint | 'head' | null {
  if (value === undefined || value === 'latest' || value === 'safe' || value === 'finalized' || value === 'pending') {
    return 'head';
  }
  if (value === 'earliest') return 0n;
  return typeof value === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(value) ? BigInt(value) : null;
}

/**
 * A log filter's range must be one the gateway can bound: a blockHash (one block), or fromBlock and
 * toBlock (each 'latest' when left out) at most MAX_LOG_BLOCKS apart. The tags near the head
 * ('safe', 'finalized', 'pending') count as the head: they are a few blocks from it at most.
 */
function rangeRefusal(method: string, params: unknown, head: bigint | undefined): RpcError | typeof NEEDS_HEAD | null {
  const filter: unknown = Array.isArray(params) ? params[0] : undefined;
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) {
    return { code: INVALID_PARAMS, message: `${method} takes a filter object.` };
  }
  const { blockHash, fromBlock, toBlock } = filter as Record<string, unknown>;
  if (blockHash !== undefined) return null;
  const from = blockOf(fromBlock);
  const to = blockOf(toBlock);
  if (from === null || to === null) {
    return {
      code: INVALID_PARAMS,
      message:
        'fromBlock and toBlock must be hex block numbers or block tags (latest, earliest, safe, finalized, pending).',
    };
  }
  if (from === 'head' && to === 'head') return null;
  if ((from === 'head' || to === 'head') && head === undefined) return NEEDS_HEAD;
  const span = (to === 'head' ? head! : to) - (from === 'head' ? head! : from) + 1n;
  if (span <= MAX_LOG_BLOCKS) return null;
  return {
    code: LIMIT_EXCEEDED,
    message: `Log queries may span at most ${MAX_LOG_BLOCKS} blocks; this one spans ${span}. Ask for a smaller range, or name one block by blockHash.`,
  };
}
