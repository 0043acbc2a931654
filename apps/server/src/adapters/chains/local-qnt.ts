import { getContractAddress, type Hex } from 'viem';
import { DEV_ACCOUNTS } from '@connect/devchain';

// Where the local QNT token lives (qnt-token.ts deploys it), apart from its deployment, so that the
// configuration's checks (production-checks.ts) load no RPC client before the database starts
// opening (issue 30).

/** anvil's last default account: funded and unlocked on every local chain (devchain's mnemonic). */
export const DEPLOYER = DEV_ACCOUNTS[9]!.address;

/** Where the deployer's first transaction puts the token, on every local chain. */
export const LOCAL_QNT_ADDRESS: Hex = getContractAddress({ from: DEPLOYER, nonce: 0n });
