import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
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
const EVERY_NETWORK = '00000000-0000-0000-0000-000000000000';

/**
 * Issue 33 §2: migration 0020's application_directory — filled from the applications there are,
 * then kept by its triggers as applications, their networks, owners and accounts change.
 */
describe('migration 0020', () => {
  let pg: PGlite;
  let accountId: string;
  let userId: string;
  let networkId: string;
  let applicationId: string;
  const one = async <R>(text: string, params: unknown[] = []) => (await pg.query<R>(text, params)).rows[0]!;
  const counts = async (network: string) =>
    Object.fromEntries(
      (
        await pg.query<{ status: string; count: string }>(
          `select status, count from application_list_counts where network_id = $1 and count > 0`,
          [network],
        )
      ).rows.map((row) => [row.status, Number(row.count)]),
    );

  beforeAll(async () => {
    pg = new PGlite({ extensions: { pg_trgm } });
    const run = async (from: number, to: number) => {
      for (const { tag } of journal.entries.filter((e) => e.idx >= from && e.idx <= to)) {
        for (const statement of statementsOf(tag)) await pg.exec(statement);
      }
    };
    await run(0, 19);
    // An application made before the migration, with one network (the roles are seeded data).
    await pg.query(`insert into roles (name, description) values ('SME', 'SME') on conflict do nothing`);
    accountId = (await one<{ id: string }>(`insert into accounts (organisation_name) values ('Engines') returning id`))
      .id;
    userId = (
      await one<{ id: string }>(
        `insert into users (id, account_id, email, role, first_name, last_name)
         values (gen_random_uuid(), $1, 'ada@example.com', 'SME', 'Ada', 'Lovelace') returning id`,
        [accountId],
      )
    ).id;
    networkId = (
      await one<{ id: string }>(
        `insert into networks (code, name, network_type, technology, chain_id) values ('t', 'Test', 'testnet', 'Ethereum', 1)
         returning id`,
      )
    ).id;
    applicationId = (
      await one<{ id: string }>(
        `insert into applications (account_id, created_by, name, name_key, callback_url, application_type, client_id,
           signing_service_name, signing_key_id, signing_public_key, signing_private_key)
         values ($1, $2, 'Payments API', 'payments api', 'https://example.com', 'testnet', 'clientid1', 's', 'k1', 'p', 'x')
         returning id`,
        [accountId, userId],
      )
    ).id;
    await pg.query(`insert into application_networks (application_id, network_id) values ($1, $2)`, [
      applicationId,
      networkId,
    ]);
    await run(20, 20);
  });
  afterAll(() => pg?.close());

  it('fills the projection and its counts from the applications there are', async () => {
    expect(await one(`select * from application_directory where application_id = $1`, [applicationId])).toMatchObject({
      status: 'ACTIVE',
      name: 'Payments API',
      role_name: 'DEVELOPER',
      owner_user_id: userId,
      owner_email: 'ada@example.com',
      owner_name: 'Ada Lovelace',
      organisation_name: 'Engines',
      search_text: 'payments api clientid1 ada@example.com',
    });
    expect(await one(`select status from application_network_directory where network_id = $1`, [networkId])).toEqual({
      status: 'ACTIVE',
    });
    expect(await counts(EVERY_NETWORK)).toEqual({ ACTIVE: 1 });
    expect(await counts(networkId)).toEqual({ ACTIVE: 1 });
  });

  it('follows a rename, the owner’s address, the account’s closing and a network removed', async () => {
    await pg.query(`update applications set name = 'Treasury bot', name_key = 'treasury bot' where id = $1`, [
      applicationId,
    ]);
    await pg.query(`update users set email = 'ada@engines.example' where id = $1`, [userId]);
    const renamed = await one<{ search_text: string; owner_key: string }>(
      `select n.search_text, n.owner_key from application_network_directory n where n.application_id = $1`,
      [applicationId],
    );
    expect(renamed).toEqual({
      search_text: 'treasury bot clientid1 ada@engines.example',
      owner_key: 'ada@engines.example',
    });

    // Staff remove the account's last user (the account is REMOVED): the application follows.
    await pg.query(`update users set status = 'REMOVED' where id = $1`, [userId]);
    await pg.query(`update accounts set status = 'REMOVED' where id = $1`, [accountId]);
    expect(await one(`select status from application_directory where application_id = $1`, [applicationId])).toEqual({
      status: 'REMOVED',
    });
    expect(await counts(EVERY_NETWORK)).toEqual({ REMOVED: 1 });
    expect(await counts(networkId)).toEqual({ REMOVED: 1 });

    await pg.query(`delete from application_networks where application_id = $1`, [applicationId]);
    expect(await counts(networkId)).toEqual({});
    await pg.query(`delete from applications where id = $1`, [applicationId]);
    expect((await pg.query(`select 1 from application_directory`)).rows).toEqual([]);
    expect(await counts(EVERY_NETWORK)).toEqual({});
  });
});
