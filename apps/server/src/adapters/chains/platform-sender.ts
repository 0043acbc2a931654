/*
 * The platform's transaction sender lives in sender/ (one public face: sender/index.ts). These
 * names stay here only for the imports that have not moved yet (tokenise's repository and service).
 */
export { platformTxRow } from './sender/index.ts';
export type { RpcCaller, SignedPlatformTx } from './sender/index.ts';
