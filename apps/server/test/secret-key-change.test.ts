import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSettings, idpSigningKeys, platformKeys, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { buildApp } from '../src/app.ts';
import { SecretBox } from '../src/lib/secret-box.ts';
import { testConfig } from './helpers.ts';
import { createServerDatabase, dropServerDatabase, freePorts, runRefusedStart } from './server-process.ts';

/**
 * Issue 28: a restart with another SECRET_KEY failed with node:crypto's "Unsupported state or
 * unable to authenticate data". The start must fail naming everything the new key cannot open,
 * saying that SECRET_KEY changed and how to recover.
 */
describe('a restart with another SECRET_KEY', () => {
  let db: DbHandle;
  beforeAll(async () => {
    db = await createTestDatabase();
    const first = await buildApp({ config: testConfig({ SECRET_KEY: 'the-first-key' }), db, logger: false });
    await first.ready();
    await first.close();
    // What a first start seals beyond its own keys (a local chain's deployer key, the QNT deposit
    // seed, made on the first start that has those chains), sealed as their code seals them.
    const box = new SecretBox('the-first-key');
    await db.db.insert(platformKeys).values([
      { name: 'deployer:local-chains', address: '0x01', sealedPrivateKey: box.seal('0x' + '11'.repeat(32)) },
      { name: 'qnt-deposits:seed', address: '0x02', sealedPrivateKey: box.seal('0x' + '22'.repeat(32)) },
    ]);
  }, 120_000);
  afterAll(() => db?.close());

  it('refuses to start, naming every sealed value the key does not open and how to recover', async () => {
    const config = testConfig({ SECRET_KEY: 'another-key' });
    const dataDir = config.dataDir;
    const start = buildApp({ config, db, logger: false });
    const error = await start.then(
      () => {
        throw new Error('the app started with another SECRET_KEY');
      },
      (err: unknown) => err as Error,
    );
    expect(error.message).not.toContain('Unsupported state');
    // Issue 31: one line first that says it all, naming the setting, that every node needs the
    // same one, and where a node without it keeps its own key.
    expect(error.message.split('\n')[0]).toBe(
      'Cannot start: SECRET_KEY does not open the data this installation sealed; every node of an installation ' +
        'must have the same SECRET_KEY — start with the one the data was sealed with (a node started without ' +
        `SECRET_KEY uses the key it generated in its data directory, here ${dataDir}/secret.key).`,
    );
    expect(error.message).toMatch(/changed/);
    // Each sealed value by name, with where it is kept and what deleting it would cost.
    expect(error.message).toContain("the identity pool's signing key (idp_signing_keys)");
    expect(error.message).toContain("the card sandbox's webhook secret (app_settings cards.sandbox_webhook_secret)");
    expect(error.message).toContain("the platform API's access-token key (app_settings gateway.token_key)");
    expect(error.message).toContain("the local chains' deployer key (platform_keys deployer:local-chains)");
    expect(error.message).toContain('the QNT deposit seed (platform_keys qnt-deposits:seed)');
  });

  it('starts again with the key the data was sealed with', async () => {
    const again = await buildApp({ config: testConfig({ SECRET_KEY: 'the-first-key' }), db, logger: false });
    await again.ready();
    await again.close();
  }, 60_000);

  it('starts with another key once what it cannot open and may be made again is deleted', async () => {
    // The recovery the message offers when the old key is lost (the deposit seed has none: its
    // row is deleted here only to show the others are made again).
    await db.db.delete(idpSigningKeys);
    await db.db.delete(platformKeys);
    await db.db.delete(appSettings);
    const fresh = await buildApp({ config: testConfig({ SECRET_KEY: 'another-key' }), db, logger: false });
    await fresh.ready();
    await fresh.close();
  }, 60_000);
});

/**
 * Issue 31: a second node started without the installation's SECRET_KEY (none at all: it
 * generated a key of its own in its data directory) is the real server process, which must end
 * with status 1 and the one line first, without a stack trace. On PostgreSQL the second node has
 * a data directory of its own beside the first's database; on PGlite (one process owns the
 * database) it is the same node started again without the key the data was sealed with.
 */
describe('a node started without the SECRET_KEY the installation sealed its data with', () => {
  const firstDataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-secret-key-first-'));
  let databaseUrl = '';
  beforeAll(async () => {
    databaseUrl = await createServerDatabase('connect_secret_key');
    // The first node: migrates the database and seals its signing key with SECRET_KEY.
    const first = await buildApp({
      config: testConfig({ SECRET_KEY: 'the-first-key', DATA_DIR: firstDataDir, DATABASE_URL: databaseUrl }),
      logger: false,
    });
    await first.ready();
    await first.close();
  }, 120_000);
  afterAll(() => dropServerDatabase(databaseUrl));

  it('exits with status 1 and says in its first line that every node needs the same SECRET_KEY, without a stack trace', async () => {
    const dataDir = databaseUrl ? mkdtempSync(path.join(os.tmpdir(), 'connect-secret-key-second-')) : firstDataDir;
    const [port] = await freePorts(1);
    const { exitCode, stderr, output } = await runRefusedStart(
      { NODE_ENV: 'test', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, DEVCHAINS: '0' },
      60_000,
    );
    expect(exitCode, output).toBe(1);
    expect(stderr.split('\n')[0]).toBe(
      `Cannot start: SECRET_KEY is unset and the key this node generated in ${dataDir}/secret.key does not open the ` +
        'data this installation sealed; every node of an installation must have the same SECRET_KEY — set it to the ' +
        'one the data was sealed with (a node started without SECRET_KEY keeps the key it generated in its own data ' +
        'directory, DATA_DIR/secret.key).',
    );
    expect(stderr).toContain("the identity pool's signing key (idp_signing_keys)");
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('Unsupported state');
  }, 90_000);
});
