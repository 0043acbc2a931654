import { describe, expect, it } from 'vitest';
import { followStep, startHere } from './step.ts';
import { recipient, useFollowerSuite } from './test-support.ts';

describe('startHere', () => {
  const s = useFollowerSuite();

  it('delivers what happens after it even when the first step comes later; a second call changes nothing', async () => {
    // An owner without a start block: without startHere its first step would begin at that step's head.
    const { follower, seen } = s.owner('start-here', { startBlock: undefined });
    expect(await startHere(s.dbh.db, follower)).toBe(true);
    const early = await s.transfer(recipient(70));
    await s.mine(3);
    expect(await startHere(s.dbh.db, follower)).toBe(false);
    await followStep(s.dbh.db, follower, { maxBlocks: 100 });
    expect(await seen()).toEqual([early.hash]);
  });

  it('without it, a transfer before the first step is not delivered (why an owner calls it)', async () => {
    const { follower, seen } = s.owner('no-start', { startBlock: undefined });
    await s.transfer(recipient(71));
    await s.mine(2);
    await followStep(s.dbh.db, follower, { maxBlocks: 100 });
    expect(await seen()).toEqual([]);
  });
});
