import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { chainBlocks, chainCursors, type Database } from '@connect/db';
import type { KnownBlock } from './types.ts';

/** A follower on one chain: the key of its cursor and of its window. */
export type CursorKey = { follower: string; chainId: number };

/**
 * The cursor moved under this step: another node (which should not hold the chain's lock, but
 * may have while its connection was being lost) or a second loop in this process stepped first.
 * Thrown inside the step's transaction, so nothing the step wrote stays.
 */
export class CursorMovedError extends Error {
  constructor(key: CursorKey) {
    super(`The cursor of ${key.follower} on chain ${key.chainId} moved under this step; the step was rolled back.`);
    this.name = 'CursorMovedError';
  }
}

const block = (number: number, hash: string): KnownBlock => ({ number: BigInt(number), hash: hash as Hex });

/**
 * A follower's position (`chain_cursors`) and its window of recent block hashes (`chain_blocks`),
 * for adapters/chains/follower. Every move is a compare-and-set on the position the step read,
 * made in the transaction that carries the owner's writes: two steps of one follower can never
 * both deliver the same blocks, whatever the locks did.
 */
export class FollowerRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repo: FollowerRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new FollowerRepository(db), db);
    });
  }

  /** The last block the follower processed, or null before its first step. */
  async cursor(key: CursorKey): Promise<KnownBlock | null> {
    return (await this.position(key))?.cursor ?? null;
  }

  /** The cursor and the newest block the owner was told is confirmed (null before the first). */
  async position(key: CursorKey): Promise<{ cursor: KnownBlock; confirmed: bigint | null } | null> {
    const [row] = await this.db
      .select({
        number: chainCursors.blockNumber,
        hash: chainCursors.blockHash,
        confirmed: chainCursors.confirmedBlock,
      })
      .from(chainCursors)
      .where(and(eq(chainCursors.follower, key.follower), eq(chainCursors.chainId, key.chainId)));
    if (!row) return null;
    return { cursor: block(row.number, row.hash), confirmed: row.confirmed === null ? null : BigInt(row.confirmed) };
  }

  /**
   * Records that the owner was told blocks up to `upTo` are confirmed, while the cursor is still
   * `at` (a step that rewound it meanwhile wins: nothing is recorded).
   */
  async confirmedUpTo(key: CursorKey, at: KnownBlock, upTo: bigint): Promise<void> {
    await this.db
      .update(chainCursors)
      .set({ confirmedBlock: Number(upTo) })
      .where(
        and(
          eq(chainCursors.follower, key.follower),
          eq(chainCursors.chainId, key.chainId),
          eq(chainCursors.blockNumber, Number(at.number)),
          eq(chainCursors.blockHash, at.hash.toLowerCase()),
        ),
      );
  }

  /** The window's blocks below `below`, newest first. */
  async windowBelow(key: CursorKey, below: bigint): Promise<KnownBlock[]> {
    const rows = await this.db
      .select({ number: chainBlocks.blockNumber, hash: chainBlocks.blockHash })
      .from(chainBlocks)
      .where(and(this.ofKey(key), lt(chainBlocks.blockNumber, Number(below))))
      .orderBy(desc(chainBlocks.blockNumber));
    return rows.map((row) => block(row.number, row.hash));
  }

  /**
   * Moves the cursor from `expected` (null: it has none yet) to `next`, records `next` (and
   * `extra`, a block the follower knows from its first step) in the window, and forgets window
   * blocks below `keepFrom` except the newest of them, so a walk back always has an older block
   * to try. Throws CursorMovedError when the cursor is no longer `expected`.
   */
  async advance(
    key: CursorKey,
    expected: KnownBlock | null,
    next: KnownBlock,
    keepFrom: bigint,
    extra: KnownBlock[] = [],
  ): Promise<void> {
    await this.moveCursor(key, expected, next);
    await this.remember(key, [...extra, next]);
    const oldest = Number(keepFrom);
    // The newest block below the line stays; everything older goes.
    await this.db.delete(chainBlocks).where(
      and(
        this.ofKey(key),
        lt(
          chainBlocks.blockNumber,
          sql`(select max(${chainBlocks.blockNumber}) from ${chainBlocks}
                where ${chainBlocks.follower} = ${key.follower} and ${chainBlocks.chainId} = ${key.chainId}
                  and ${chainBlocks.blockNumber} < ${oldest})`,
        ),
      ),
    );
  }

  /**
   * Moves the cursor back to `to` (a block still on the chain) and forgets the window above it; the
   * confirmed block goes back to `to` at most (the blocks after it are read and confirmed again).
   * A cursor that never confirmed anything (null) stays so: `least` ignores a null and would
   * answer `to`, telling the next loss that blocks nobody was told about had been confirmed.
   */
  async rewind(key: CursorKey, expected: KnownBlock, to: KnownBlock): Promise<void> {
    await this.moveCursor(key, expected, to);
    await this.db
      .update(chainCursors)
      .set({
        confirmedBlock: sql`case when ${chainCursors.confirmedBlock} is null then null
          else least(${chainCursors.confirmedBlock}, ${Number(to.number)}) end`,
      })
      .where(and(eq(chainCursors.follower, key.follower), eq(chainCursors.chainId, key.chainId)));
    await this.db.delete(chainBlocks).where(and(this.ofKey(key), gt(chainBlocks.blockNumber, Number(to.number))));
    await this.remember(key, [to]);
  }

  private async moveCursor(key: CursorKey, expected: KnownBlock | null, next: KnownBlock): Promise<void> {
    const values = { blockNumber: Number(next.number), blockHash: next.hash.toLowerCase(), updatedAt: new Date() };
    const moved = expected
      ? await this.db
          .update(chainCursors)
          .set(values)
          .where(
            and(
              eq(chainCursors.follower, key.follower),
              eq(chainCursors.chainId, key.chainId),
              eq(chainCursors.blockNumber, Number(expected.number)),
              eq(chainCursors.blockHash, expected.hash.toLowerCase()),
            ),
          )
          .returning({ number: chainCursors.blockNumber })
      : await this.db
          .insert(chainCursors)
          .values({ ...key, ...values })
          .onConflictDoNothing()
          .returning({ number: chainCursors.blockNumber });
    if (moved.length === 0) throw new CursorMovedError(key);
  }

  private async remember(key: CursorKey, blocks: KnownBlock[]): Promise<void> {
    if (blocks.length === 0) return;
    await this.db
      .insert(chainBlocks)
      .values(blocks.map((b) => ({ ...key, blockNumber: Number(b.number), blockHash: b.hash.toLowerCase() })))
      .onConflictDoUpdate({
        target: [chainBlocks.follower, chainBlocks.chainId, chainBlocks.blockNumber],
        set: { blockHash: sql`excluded.block_hash` },
      });
  }

  private ofKey(key: CursorKey) {
    return and(eq(chainBlocks.follower, key.follower), eq(chainBlocks.chainId, key.chainId));
  }
}
