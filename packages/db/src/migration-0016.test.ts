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
 * Issue 29 §4: migration 0016 moves what an account may have into the entitlements module — the
 * view `account_allowances` goes, and `entitlement_overrides` holds one value per account and key.
 */
describe('migration 0016', () => {
  let pg: PGlite;
  let accountId: string;
  beforeAll(async () => {
    pg = new PGlite();
    for (const { tag } of journal.entries.filter((e) => e.idx <= 16)) {
      for (const statement of statementsOf(tag)) await pg.exec(statement);
    }
    const { rows } = await pg.query<{ id: string }>(`insert into accounts default values returning id`);
    accountId = rows[0]!.id;
  });
  afterAll(() => pg?.close());

  it('drops the account_allowances view', async () => {
    const { rows } = await pg.query(`select 1 from pg_views where viewname = 'account_allowances'`);
    expect(rows).toEqual([]);
  });

  it('keeps one override per account and key, a switch or a number from 0, never both', async () => {
    await pg.query(`insert into entitlement_overrides (account_id, key, amount) values ($1, 'tokens', 7)`, [accountId]);
    await pg.query(`insert into entitlement_overrides (account_id, key, enabled) values ($1, 'reward', false)`, [
      accountId,
    ]);
    for (const values of [`'bridges', true, 1`, `'bridges', null, null`, `'bridges', null, -1`]) {
      await expect(
        pg.query(`insert into entitlement_overrides (account_id, key, enabled, amount) values ($1, ${values})`, [
          accountId,
        ]),
      ).rejects.toThrow(/entitlement_overrides_(one_value|amount)/);
    }
    await expect(
      pg.query(`insert into entitlement_overrides (account_id, key, amount) values ($1, 'tokens', 8)`, [accountId]),
    ).rejects.toThrow(/duplicate key/);
    await pg.query(`delete from accounts where id = $1`, [accountId]);
    const { rows } = await pg.query(`select * from entitlement_overrides`);
    expect(rows).toEqual([]);
  });
});
