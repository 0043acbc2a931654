import { randomUUID } from 'node:crypto';
import { publicActions, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { deployData } from '@connect/contracts';
import { TEST_WALLET_ADDRESS } from '@connect/devchain';
import { TOKEN_MESSAGES, type TCreateTokenResponse } from '@connect/shared';
import { TRIAL_CREDITS } from '../../lib/trial-credits.ts';
import {
  HOLDER,
  details,
  newTokenUser,
  qrc20Form,
  settled,
  testWallet,
  useTokenSuite,
  type TokenUser,
} from './test-support.ts';

/** Wallet deployments (META_MASK): the data to send, tracking and its refusals (spec §4, §7). */
describe('tokenise: wallet deployment (META_MASK)', () => {
  const s = useTokenSuite();
  const { create, quant20, problem, creditsOf } = s;

  const wallet = () => testWallet(s.chain);
  /** How many transactions `address` has had mined on the test chain (its nonce). */
  const sentBy = (address: string) =>
    wallet()
      .extend(publicActions)
      .getTransactionCount({ address: address as Hex, blockTag: 'latest' });
  const track = (user: TokenUser, externalId: string, txHash: string) =>
    s.t.app.inject({
      method: 'PUT',
      url: '/api/tokenise/token/deploy/track',
      headers: user.headers,
      payload: { externalId, txHash },
    });
  const cancelTracking = (user: TokenUser, payload: { externalId: string; reason?: string }) =>
    s.t.app.inject({ method: 'PUT', url: '/api/tokenise/token/deploy/track/cancel', headers: user.headers, payload });

  it('answers the exact deployment data; the wallet’s transaction makes it ACTIVE', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    const payload = {
      ...quant20('flex', { minter: TEST_WALLET_ADDRESS, maxSupply: 0 }),
      deploymentType: 'META_MASK',
      supplyHolderAddress: TEST_WALLET_ADDRESS,
    };
    const res = await create(user, payload);
    expect(res.statusCode, res.body).toBe(201);
    const { token, deployment } = res.json<TCreateTokenResponse>();
    expect(deployment).not.toBeNull();
    expect(deployment!.chainId).toBe(s.chain.chainId);
    expect(deployment!.data).toBe(
      deployData('QRC20', 'flex', {
        name: 'Green Bond',
        symbol: 'GRB',
        decimals: 18,
        initialSupply: 1000n * 10n ** 18n,
        supplyHolder: TEST_WALLET_ADDRESS,
        minter: TEST_WALLET_ADDRESS,
        maxSupply: 0n,
        remintable: false,
      }),
    );
    // Nothing is deployed until the wallet reports its transaction: a platform deployment created
    // after it is sent and settles ACTIVE, and by then the platform has sent that one transaction
    // only (none for the wallet's token), which is still PENDING.
    const sentBefore = await sentBy(s.deployer);
    const markerUser = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    const marker = await create(markerUser, quant20('base'));
    expect(marker.statusCode, marker.body).toBe(201);
    expect((await settled(s.t, markerUser, marker.json<TCreateTokenResponse>().token.id)).status).toBe('ACTIVE');
    expect(await sentBy(s.deployer)).toBe(sentBefore + 1);
    expect((await details(s.t, user, token.id)).status).toBe('PENDING');

    const hash = await wallet().sendTransaction({ data: deployment!.data as Hex });
    const tracked = await track(user, payload.externalId, hash);
    expect(tracked.statusCode, tracked.body).toBe(200);
    // Reporting the same hash again is harmless.
    expect((await track(user, payload.externalId, hash)).statusCode).toBe(200);

    const done = await settled(s.t, user, token.id);
    expect(done.status).toBe('ACTIVE');
    expect(done.deployerAddress?.toLowerCase()).toBe(TEST_WALLET_ADDRESS.toLowerCase());
    expect(done.creditsCharged).toBe(10); // the flex bytecode amount
    expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS - 10);
    const live = await details(s.t, user, token.id, `?holder=${TEST_WALLET_ADDRESS}`);
    expect(live.onChain?.totalSupply).toBe((1000n * 10n ** 18n).toString());
    expect(live.deployment).toBeNull();

    // A transaction hash tracks one token only.
    const other = await create(user, { ...payload, externalId: randomUUID() });
    const reused = await track(user, other.json<TCreateTokenResponse>().token.externalId, hash);
    expect(reused.statusCode).toBe(409);
    expect(problem(reused).detail).toBe(TOKEN_MESSAGES.txHashTaken);
    expect(problem(reused)).toMatchObject({
      code: 'TX_HASH_TAKEN',
      invalidParams: [{ name: 'txHash', reason: TOKEN_MESSAGES.txHashTaken }],
    });
  });

  it('fails a transaction that did not deploy the prepared data, and charges nothing', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
    const res = await create(user, payload);
    const { token, deployment } = res.json<TCreateTokenResponse>();
    // The wallet deploys something else: the same contract with a different supply.
    const forged = deployData('QRC20', 'base', {
      name: 'Green Bond',
      symbol: 'GRB',
      decimals: 18,
      initialSupply: 999_999n * 10n ** 18n,
      supplyHolder: TEST_WALLET_ADDRESS,
    });
    expect(forged).not.toBe(deployment!.data);
    const hash = await wallet().sendTransaction({ data: forged });
    expect((await track(user, payload.externalId, hash)).statusCode).toBe(200);
    const done = await settled(s.t, user, token.id);
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toMatch(/did not deploy the prepared contract/);
    expect(done.creditsCharged).toBe(0);
    expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS);
  });

  it('fails a tracked transaction that is not a contract creation', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
    const { token } = (await create(user, payload)).json<TCreateTokenResponse>();
    const hash = await wallet().sendTransaction({ to: HOLDER, value: 1n });
    expect((await track(user, payload.externalId, hash)).statusCode).toBe(200);
    const done = await settled(s.t, user, token.id);
    expect(done).toMatchObject({ status: 'FAILED', failureReason: 'The transaction is not a contract deployment.' });
  });

  it('records a cancelled or denied wallet request, and edits an unsent deployment', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
    const { token, deployment } = (await create(user, payload)).json<TCreateTokenResponse>();

    const edit = await s.t.app.inject({
      method: 'PUT',
      url: '/api/tokenise/token',
      headers: user.headers,
      payload: { id: token.id, ...qrc20Form({ name: 'Renamed Bond', unit: 'RNB' }) },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = edit.json<TCreateTokenResponse>();
    expect(edited.token.tokenName).toBe('Renamed Bond');
    expect(edited.deployment!.data).not.toBe(deployment!.data);
    const badEdit = await s.t.app.inject({
      method: 'PUT',
      url: '/api/tokenise/token',
      headers: user.headers,
      payload: { id: token.id, ...qrc20Form({ decimal: 40 }) },
    });
    expect(badEdit.statusCode).toBe(400);
    expect(problem(badEdit).invalidParams).toEqual([{ name: 'decimal', reason: TOKEN_MESSAGES.decimals }]);

    const cancel = await cancelTracking(user, { externalId: payload.externalId, reason: 'DENIED' });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json<TCreateTokenResponse>().token).toMatchObject({
      status: 'FAILED',
      failureReason: 'User denied transaction signature.',
    });
  });

  it('refuses a status change the token cannot make, and tracking anything but an unsent wallet deployment', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
    const { token } = (await create(user, payload)).json<TCreateTokenResponse>();
    const deprecate = await s.t.app.inject({
      method: 'PUT',
      url: '/api/tokenise/token',
      headers: user.headers,
      payload: { id: token.id, status: 'DEPRECATED' },
    });
    expect(deprecate.statusCode).toBe(409);
    expect(problem(deprecate)).toMatchObject({
      code: 'TOKEN_STATUS_CHANGE',
      detail: TOKEN_MESSAGES.statusChange('PENDING', 'DEPRECATED'),
    });

    const platform = (await create(user, quant20('base'))).json<TCreateTokenResponse>().token;
    const notWallet = await track(user, platform.externalId, `0x${'cd'.repeat(32)}`);
    expect(notWallet.statusCode).toBe(409);
    expect(problem(notWallet)).toMatchObject({
      code: 'NOT_WALLET_DEPLOYMENT',
      detail: TOKEN_MESSAGES.notWalletDeployment,
    });

    // A hash the chain has never seen: followed, but the token is no longer editable or cancellable.
    expect((await track(user, payload.externalId, `0x${'ef'.repeat(32)}`)).statusCode).toBe(200);
    const again = await track(user, payload.externalId, `0x${'fe'.repeat(32)}`);
    expect(again.statusCode).toBe(409);
    expect(problem(again)).toMatchObject({ code: 'TOKEN_ALREADY_TRACKED', detail: TOKEN_MESSAGES.alreadyTracked });
    const cancel = await cancelTracking(user, { externalId: payload.externalId });
    expect(cancel.statusCode).toBe(409);
    expect(problem(cancel)).toMatchObject({
      code: 'DEPLOYMENT_NOT_CANCELLABLE',
      detail: TOKEN_MESSAGES.cannotCancel,
    });
  });
});
