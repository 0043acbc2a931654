import { PROBLEMS } from '../problem-codes.ts';
import { TOKEN_LIMITS, TOKEN_STATUS_LABELS, type TTokenStatus } from './constants.ts';

/** Field and guard messages (spec §8 quoted exactly; the rest decided, spec §5 note 5). */
export const TOKEN_MESSAGES = {
  missingOnChain:
    'This contract is no longer on the chain: the local chain came back from an earlier state and lost it. Deploy the token again.',
  nameRequired: 'Please enter a token name',
  nameTooLong: `The token name can be at most ${TOKEN_LIMITS.nameMax} characters`,
  nameCharacters: "The token name may only contain letters, numbers, spaces and - _ . ' &",
  nameCurrency: (code: string) => `The token name must not contain the currency code ${code}`,
  unitRequired: 'Please enter the token unit (symbol)',
  unitLength: `The token unit must be ${TOKEN_LIMITS.unitMin} to ${TOKEN_LIMITS.unitMax} letters or digits`,
  unitCurrency: (code: string) => `The token unit must not contain the currency code ${code}`,
  decimals: `Decimals must be a whole number from ${TOKEN_LIMITS.decimalsMin} to ${TOKEN_LIMITS.decimalsMax}`,
  initialSupply: 'The initial supply must be a whole number from 0 to 1,000,000,000',
  maxSupply: 'The maximum supply must be a whole number from 0 (no limit) to 1,000,000,000',
  maxSupplyBelowInitial: 'The maximum supply must be 0 (no limit) or at least the initial supply',
  nonNegative: 'The number must be 0 or greater',
  addressRequired: 'Please enter an address',
  addressFormat: 'Please enter a valid address: 0x followed by 40 hexadecimal characters (42 characters)',
  addressChecksum:
    'This address has mixed upper and lower case letters but its checksum (EIP-55) is wrong: check it for typing errors',
  tokenUriRequired: 'Please enter the base token URI',
  tokenUriFormat: "The base token URI must start with http and end with '/'",
  tokenUriTooLong: `The base token URI can be at most ${TOKEN_LIMITS.tokenUriMax} characters`,
  remintable: 'Please choose whether burnt tokens can be minted again',
  externalId: 'The deployment id (externalId) must be 1 to 100 letters, digits, - or _',
  tokenTypeRequired: 'Please choose a token type',
  deploymentTypeRequired: 'Please choose how to deploy the token',
  locationRequired: 'Please choose a blockchain network',
  tierRequired: 'Please choose a smart contract tier',
  txHash: 'The transaction hash must be 0x followed by 64 hexadecimal characters',
  /** spec §8, quoted exactly: the no-networks guard (SPA: My networks with configureNetworks=true). */
  configureNetworks: PROBLEMS.NETWORKS_NOT_CONFIGURED.message,
  /** spec §5: no tokens:create quota left (SPA: back to Token Flow). */
  quotaReached: PROBLEMS.TOKEN_QUOTA_REACHED.message,
  kycRequired: 'Deploying tokens on a mainnet needs a verified identity',
  locationUnavailable: PROBLEMS.TOKEN_LOCATION_UNAVAILABLE.message,
  tierUnavailable: PROBLEMS.TOKEN_TIER_UNAVAILABLE.message,
  tierTokenType: PROBLEMS.TOKEN_TIER_TYPE.message,
  noPlatformDeployer: PROBLEMS.NO_PLATFORM_DEPLOYER.message,
  insufficientCredits: (needed: number, available: number) =>
    `This deployment costs ${needed} credits and your account has ${available}. Buy credits or choose another tier.`,
  externalIdTaken: PROBLEMS.EXTERNAL_ID_TAKEN.message,
  notFound: PROBLEMS.TOKEN_NOT_FOUND.message,
  notEditable: PROBLEMS.TOKEN_NOT_EDITABLE.message,
  statusChange: (from: TTokenStatus, to: TTokenStatus) =>
    `A token cannot go from ${TOKEN_STATUS_LABELS[from]} to ${TOKEN_STATUS_LABELS[to]}`,
  notWalletDeployment: PROBLEMS.NOT_WALLET_DEPLOYMENT.message,
  alreadyTracked: PROBLEMS.TOKEN_ALREADY_TRACKED.message,
  txHashTaken: PROBLEMS.TX_HASH_TAKEN.message,
  cannotCancel: PROBLEMS.DEPLOYMENT_NOT_CANCELLABLE.message,
  /** spec §8, quoted exactly. */
  deploymentFailed: 'Deployment failed, please try again later',
  deploymentCancelled: "You've canceled your deployment.",
  walletDenied: 'User denied transaction signature.',
  walletMissing: 'Please install and activate your MetaMask!',
  deploymentFailedNotice:
    'The deployment of this token failed. No credits were charged. Please contact support if it happens again.',
  updated: 'The token has been updated.',
} as const;
