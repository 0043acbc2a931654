import type { Abi } from 'viem';

/**
 * The functions the coin details page calls from the wallet: mint of the flex and vari tiers.
 * QRC20 mints an amount of base units; QRC721 mints the next token id to one address.
 * (The platform reads supply and balances itself; see GET /token/{id}.)
 */
export const QRC20_MINT_ABI = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
] as const satisfies Abi;

export const QRC721_MINT_ABI = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'to', type: 'address' }],
    outputs: [{ name: 'tokenId', type: 'uint256' }],
  },
] as const satisfies Abi;
