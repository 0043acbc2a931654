import { keccak256Hex } from '../keccak.ts';

/*
 * EVM addresses (spec §5/§9) with their EIP-55 checksums, and the QRC721 base URI rule. Zod-free.
 */

/** The EIP-55 mixed-case checksum form of a 0x + 40 hex address. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256Hex(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const ch = lower[i]!;
    out += parseInt(hash[i]!, 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

export type TAddressProblem = 'format' | 'checksum';
/**
 * Why a text is not an EVM address, or null when it is: 0x and 40 hexadecimal characters (42 in
 * all, spec §5/§9); all lower or all upper case is accepted as is, mixed case must carry a
 * correct EIP-55 checksum.
 */
export function evmAddressProblem(value: string): TAddressProblem | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return 'format';
  const body = value.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return null;
  return toChecksumAddress(value) === value ? null : 'checksum';
}
export const isEvmAddress = (value: string) => evmAddressProblem(value) === null;

/** The QRC721 base URI rule (spec §5): starts with "http" (any case) and ends with "/". */
export function isValidBaseTokenUri(uri: string): boolean {
  return /^http/i.test(uri) && uri.endsWith('/') && uri.length >= 5;
}
