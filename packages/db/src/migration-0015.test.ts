import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './client.ts';

/** The migrations' statements, in the journal's order, as drizzle-kit splits them. */
function statementsOf(tag: string): string[] {
  return readFileSync(path.join(MIGRATIONS_DIR, `${tag}.sql`), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
}
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; tag: string }[];
};

/**
 * Issue 27 §4: migration 0015 adds `chain_cursors.confirmed_block`. A cursor from before it has
 * read (and told its owner about) blocks up to its cursor, so it starts with them confirmed: else a
 * loss found on the first step after the upgrade (the crash case) would run no hook at all.
 */
describe('migration 0015', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = new PGlite();
    for (const { tag } of journal.entries.filter((e) => e.idx < 15)) {
      for (const statement of statementsOf(tag)) await pg.exec(statement);
    }
  });
  afterAll(async () => {
    await pg?.close();
  });

  it("starts an existing cursor's confirmed block at its cursor", async () => {
    await pg.exec(
      `insert into chain_cursors (follower, chain_id, block_number, block_hash) values ('qnt-deposits', 31337, 812, '0xab')`,
    );
    for (const statement of statementsOf('0015_staff_alerts_reorg')) await pg.exec(statement);
    const { rows } = await pg.query<{ confirmed_block: string | number }>(
      `select confirmed_block from chain_cursors where follower = 'qnt-deposits'`,
    );
    expect(rows.map((r) => Number(r.confirmed_block))).toEqual([812]);
  });
});
