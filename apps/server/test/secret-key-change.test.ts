import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSettings, idpSigningKeys, platformKeys, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { buildApp } from '../src/app.ts';
import { SecretBox } from '../src/lib/secret-box.ts';
import { testConfig } from './helpers.ts';

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
    const start = buildApp({ config: testConfig({ SECRET_KEY: 'another-key' }), db, logger: false });
    const error = await start.then(
      () => {
        throw new Error('the app started with another SECRET_KEY');
      },
      (err: unknown) => err as Error,
    );
    expect(error.message).not.toContain('Unsupported state');
    expect(error.message).toContain('SECRET_KEY');
    expect(error.message).toMatch(/changed/);
    // Each sealed value by name, with where it is kept and what deleting it would cost.
    expect(error.message).toContain("the identity pool's signing key (idp_signing_keys)");
    expect(error.message).toContain("the card sandbox's webhook secret (app_settings cards.sandbox_webhook_secret)");
    expect(error.message).toContain("the platform API's access-token key (app_settings gateway.token_key)");
    expect(error.message).toContain("the local chains' deployer key (platform_keys deployer:local-chains)");
    expect(error.message).toContain('the QNT deposit seed (platform_keys qnt-deposits:seed)');
    // The way back first: the key it was sealed with.
    expect(error.message).toContain('start again with the SECRET_KEY these were sealed with');
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
