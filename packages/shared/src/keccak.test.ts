import { describe, expect, it } from 'vitest';
import { keccak256Hex } from './keccak.ts';

const text = (value: string) => new TextEncoder().encode(value);

describe('keccak256Hex', () => {
  it('hashes like Ethereum’s Keccak-256', () => {
    expect(keccak256Hex(new Uint8Array())).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(keccak256Hex(text('hello'))).toBe('1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8');
    // Longer than one 136-byte block.
    expect(keccak256Hex(text('a'.repeat(200)))).toHaveLength(64);
  });

  // Reference values from @noble/hashes (viem's keccak): each side of the 136-byte block boundary.
  it.each([
    [135, '34367dc248bbd832f4e3e69dfaac2f92638bd0bbd18f2912ba4ef454919cf446'],
    [136, 'a6c4d403279fe3e0af03729caada8374b5ca54d8065329a3ebcaeb4b60aa386e'],
    [137, 'd869f639c7046b4929fc92a4d988a8b22c55fbadb802c0c66ebcd484f1915f39'],
    [272, 'cf7fcd4f705ee749930d19ca84561a9bf62516bd90a471545fa2f49fdc7e63c8'],
  ])('hashes %i bytes across the block boundary', (length, expected) => {
    expect(keccak256Hex(text('a'.repeat(length)))).toBe(expected);
  });
});
