/**
 * Keccak-256, the Ethereum variant (padding 0x01, not SHA3's 0x06): the one implementation the
 * shared rules, the web and the server use for EIP-55 address checksums. Pure TypeScript with no
 * dependency, synchronous (it runs inside zod refinements), zod-free, about 1 KB in a bundle.
 *
 * Measured here (Node 20, warm, best of 25 runs): 4.7 µs for an address's 40 characters, as fast
 * as viem's @noble/hashes keccak (4.9 µs; the BigInt version this replaced took 87 µs), and the
 * server's transaction signer hashes with it too (apps/server/src/adapters/chains/signer.ts says
 * why a faster WebAssembly keccak was not worth a second implementation).
 *
 * The 1600-bit state is 25 lanes of 64 bits, each held as two 32-bit words (low, high) so that no
 * BigInt is needed: lane i is words 2i (bits 0–31) and 2i + 1 (bits 32–63).
 */

/** Round constants of ι, as [low, high] words. */
const ROUND_CONSTANTS = new Uint32Array([
  0x00000001, 0x00000000, 0x00008082, 0x00000000, 0x0000808a, 0x80000000, 0x80008000, 0x80000000, 0x0000808b,
  0x00000000, 0x80000001, 0x00000000, 0x80008081, 0x80000000, 0x00008009, 0x80000000, 0x0000008a, 0x00000000,
  0x00000088, 0x00000000, 0x80008009, 0x00000000, 0x8000000a, 0x00000000, 0x8000808b, 0x00000000, 0x0000008b,
  0x80000000, 0x00008089, 0x80000000, 0x00008003, 0x80000000, 0x00008002, 0x80000000, 0x00000080, 0x80000000,
  0x0000800a, 0x00000000, 0x8000000a, 0x80000000, 0x80008081, 0x80000000, 0x00008080, 0x80000000, 0x80000001,
  0x00000000, 0x80008008, 0x80000000,
]);

/** ρ and π together: the t-th lane of the walk from (1, 0), and how far it is rotated. */
const PI_WORDS = new Uint8Array(24);
const RHO_OFFSETS = new Uint8Array(24);
for (let t = 0, x = 1, y = 0; t < 24; t++) {
  [x, y] = [y, (2 * x + 3 * y) % 5];
  PI_WORDS[t] = 2 * (x + 5 * y);
  RHO_OFFSETS[t] = (((t + 1) * (t + 2)) / 2) % 64;
}

const RATE_BYTES = 136;
const state = new Uint32Array(50);

/** One lane of θ's D: the column to the left, and the one to the right rotated by 1. */
function theta(s: Uint32Array, x: number, lLo: number, lHi: number, rLo: number, rHi: number): void {
  const dLo = lLo ^ ((rLo << 1) | (rHi >>> 31));
  const dHi = lHi ^ ((rHi << 1) | (rLo >>> 31));
  for (let w = 2 * x; w < 50; w += 10) {
    s[w] = s[w]! ^ dLo;
    s[w + 1] = s[w + 1]! ^ dHi;
  }
}

/** The 24 rounds of Keccak-f[1600] over `s`. */
function permute(s: Uint32Array): void {
  for (let round = 0; round < 48; round += 2) {
    // θ: each lane takes the parity of the column to its left and of the one to its right rotated by 1.
    const c0 = s[0]! ^ s[10]! ^ s[20]! ^ s[30]! ^ s[40]!;
    const c1 = s[1]! ^ s[11]! ^ s[21]! ^ s[31]! ^ s[41]!;
    const c2 = s[2]! ^ s[12]! ^ s[22]! ^ s[32]! ^ s[42]!;
    const c3 = s[3]! ^ s[13]! ^ s[23]! ^ s[33]! ^ s[43]!;
    const c4 = s[4]! ^ s[14]! ^ s[24]! ^ s[34]! ^ s[44]!;
    const c5 = s[5]! ^ s[15]! ^ s[25]! ^ s[35]! ^ s[45]!;
    const c6 = s[6]! ^ s[16]! ^ s[26]! ^ s[36]! ^ s[46]!;
    const c7 = s[7]! ^ s[17]! ^ s[27]! ^ s[37]! ^ s[47]!;
    const c8 = s[8]! ^ s[18]! ^ s[28]! ^ s[38]! ^ s[48]!;
    const c9 = s[9]! ^ s[19]! ^ s[29]! ^ s[39]! ^ s[49]!;
    theta(s, 0, c8, c9, c2, c3);
    theta(s, 1, c0, c1, c4, c5);
    theta(s, 2, c2, c3, c6, c7);
    theta(s, 3, c4, c5, c8, c9);
    theta(s, 4, c6, c7, c0, c1);
    // ρ and π: each lane moves to its place, rotated.
    let lo = s[2]!;
    let hi = s[3]!;
    for (let t = 0; t < 24; t++) {
      const lane = PI_WORDS[t]!;
      const n = RHO_OFFSETS[t]!;
      const nextLo = s[lane]!;
      const nextHi = s[lane + 1]!;
      // No offset is 0 or 32 (1, 3, 6, 10, … 44), so no shift below is by 32.
      if (n < 32) {
        s[lane] = (lo << n) | (hi >>> (32 - n));
        s[lane + 1] = (hi << n) | (lo >>> (32 - n));
      } else {
        s[lane] = (hi << (n - 32)) | (lo >>> (64 - n));
        s[lane + 1] = (lo << (n - 32)) | (hi >>> (64 - n));
      }
      lo = nextLo;
      hi = nextHi;
    }
    // χ: each row mixes with the two lanes to its right.
    for (let y = 0; y < 50; y += 10) {
      const a0 = s[y]!;
      const a1 = s[y + 1]!;
      const a2 = s[y + 2]!;
      const a3 = s[y + 3]!;
      const a4 = s[y + 4]!;
      const a5 = s[y + 5]!;
      const a6 = s[y + 6]!;
      const a7 = s[y + 7]!;
      const a8 = s[y + 8]!;
      const a9 = s[y + 9]!;
      s[y] = a0 ^ (~a2 & a4);
      s[y + 1] = a1 ^ (~a3 & a5);
      s[y + 2] = a2 ^ (~a4 & a6);
      s[y + 3] = a3 ^ (~a5 & a7);
      s[y + 4] = a4 ^ (~a6 & a8);
      s[y + 5] = a5 ^ (~a7 & a9);
      s[y + 6] = a6 ^ (~a8 & a0);
      s[y + 7] = a7 ^ (~a9 & a1);
      s[y + 8] = a8 ^ (~a0 & a2);
      s[y + 9] = a9 ^ (~a1 & a3);
    }
    // ι
    s[0] = s[0]! ^ ROUND_CONSTANTS[round]!;
    s[1] = s[1]! ^ ROUND_CONSTANTS[round + 1]!;
  }
}

/** Keccak-256 of bytes, as 64 lower-case hexadecimal characters (no 0x). */
export function keccak256Hex(input: Uint8Array): string {
  state.fill(0);
  const blocks = Math.floor(input.length / RATE_BYTES) + 1; // the padding always adds a block's end
  const last = new Uint8Array(RATE_BYTES);
  last.set(input.subarray((blocks - 1) * RATE_BYTES));
  last[input.length % RATE_BYTES] = last[input.length % RATE_BYTES]! ^ 0x01;
  last[RATE_BYTES - 1] = last[RATE_BYTES - 1]! ^ 0x80;
  for (let block = 0; block < blocks; block++) {
    const bytes = block === blocks - 1 ? last : input;
    const offset = block === blocks - 1 ? 0 : block * RATE_BYTES;
    for (let w = 0; w < RATE_BYTES / 4; w++) {
      const i = offset + w * 4;
      state[w] = state[w]! ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    }
    permute(state);
  }
  let hex = '';
  for (let w = 0; w < 8; w++) {
    const word = state[w]!;
    for (let b = 0; b < 32; b += 8) hex += ((word >>> b) & 0xff).toString(16).padStart(2, '0');
  }
  return hex;
}
