import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { PRODUCTION_ENV } from '../test/production-env.ts';
import { LOCAL_QNT_ADDRESS } from './adapters/chains/qnt-token.ts';
import { loadConfig } from './config.ts';
import { productionProblems } from './production-checks.ts';
import { qntNetworkOf } from './services/payment/qnt-payments.ts';

/** A QNT token address that is not the local one (a production token is configured by address). */
const TOKEN = '0x4a220e6096b25eadb88358cb44068a3248254675';

/** The settings the production check names, in its order (each line of its message starts with one). */
function refusedSettings(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration for production/);
    return message
      .split('\n')
      .slice(1)
      .map((line) => line.replace(/^\s*- /, '').split(/[ =]/)[0]!);
  }
  return [];
}

/** The settings production requires besides SECRET_KEY, in the order refusedSettings names them. */
const REQUIRED_BESIDES_SECRET_KEY = [
  'DATABASE_URL',
  'PUBLIC_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'SUPPORT_EMAIL',
  'STAFF_ALERT_EMAIL',
];

/** Issue 27 §1: a production instance takes no free test money, whatever else is configured. */
describe('the production configuration, one checked list', () => {
  it('names every missing setting in one message, not the first only', () => {
    expect(refusedSettings({ NODE_ENV: 'production' })).toEqual(['SECRET_KEY', ...REQUIRED_BESIDES_SECRET_KEY]);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRET_KEY is required/);
  });

  it('starts with the required settings, and then no development convenience is on', () => {
    const config = loadConfig(PRODUCTION_ENV);
    expect(config.isProduction).toBe(true);
    expect(config.chains.devchains.enabled).toBe(false);
    expect(config.cards.sandbox.allowed).toBe(false);
    expect(config.kyc.sandboxAllowed).toBe(false);
    expect(config.signUpCaptcha).toBe(true);
    // No QNT configured: QNT is not offered (the subscription's payment methods come from qntNetworkOf).
    expect(config.qnt.tokenAddress).toBeNull();
    expect(qntNetworkOf(config, null)).toBeNull();
  });

  it('forbids the local chains, the card and KYC sandboxes and sign-up without a captcha, each by name', () => {
    const env = { ...PRODUCTION_ENV, DEVCHAINS: '1', CARD_SANDBOX: 'on', KYC_SANDBOX: 'on', SIGNUP_CAPTCHA: 'off' };
    expect(refusedSettings(env)).toEqual(['DEVCHAINS', 'CARD_SANDBOX', 'KYC_SANDBOX', 'SIGNUP_CAPTCHA']);
    expect(() => loadConfig(env)).toThrow(/DEVCHAINS=1 is forbidden/);
    // Missing and forbidden settings come in the same message.
    expect(refusedSettings({ NODE_ENV: 'production', SECRET_KEY: 'k', DEVCHAINS: 'on' })).toEqual([
      ...REQUIRED_BESIDES_SECRET_KEY,
      'DEVCHAINS',
    ]);
  });

  it('lets a sign-up captcha be turned off when AWS Cognito, not the embedded pool, signs users up', () => {
    const cognito = { COGNITO_USER_POOL_ID: 'eu-west-1_Abc', COGNITO_CLIENT_ID: 'client' };
    expect(refusedSettings({ ...PRODUCTION_ENV, ...cognito, SIGNUP_CAPTCHA: 'off' })).toEqual([]);
  });

  it('takes QNT only on a network whose RPC URL is configured for it, never a local chain or the local token', () => {
    // The token without its network: production has no default network (the development default
    // is a testnet), so the operator names the one the token is on.
    expect(refusedSettings({ ...PRODUCTION_ENV, QNT_TOKEN_ADDRESS: TOKEN })).toEqual(['QNT_NETWORK']);
    expect(loadConfig(PRODUCTION_ENV).qnt.network).toBe('');
    // The token without its network's RPC URL: QNT would silently not be offered; say so instead.
    expect(refusedSettings({ ...PRODUCTION_ENV, QNT_NETWORK: 'ethereum-mainnet', QNT_TOKEN_ADDRESS: TOKEN })).toEqual([
      'NETWORK_RPC_ETHEREUM_MAINNET',
    ]);
    // A chain on this machine's loopback standing in for a testnet is a development chain.
    expect(
      refusedSettings({
        ...PRODUCTION_ENV,
        QNT_TOKEN_ADDRESS: TOKEN,
        NETWORK_RPC_ETHEREUM_TESTNET: 'http://127.0.0.1:8545',
      }),
    ).toEqual(['QNT_NETWORK']);
    // anvil's public account deploys the local QNT at this address on any chain it is sent to.
    expect(
      refusedSettings({
        ...PRODUCTION_ENV,
        QNT_NETWORK: 'ethereum-mainnet',
        NETWORK_RPC_ETHEREUM_MAINNET: 'https://eth.example.com',
        QNT_TOKEN_ADDRESS: LOCAL_QNT_ADDRESS,
      }),
    ).toEqual(['QNT_TOKEN_ADDRESS']);
    expect(refusedSettings({ ...PRODUCTION_ENV, QNT_NETWORK: 'nowhere', QNT_TOKEN_ADDRESS: TOKEN })).toEqual([
      'QNT_NETWORK',
    ]);
    // A testnet anywhere is free test QNT: Sepolia, a docker anvil, a node on the LAN (not only loopback).
    for (const [network, url] of [
      ['ethereum-testnet', 'https://sepolia.example.com'],
      ['ethereum-testnet', 'http://anvil:8545'],
      ['polygon-testnet', 'http://192.168.1.20:8545'],
    ] as const) {
      const env = {
        ...PRODUCTION_ENV,
        QNT_NETWORK: network,
        [`NETWORK_RPC_${network.toUpperCase().replace('-', '_')}`]: url,
        QNT_TOKEN_ADDRESS: TOKEN,
      };
      expect(refusedSettings(env), url).toEqual(['QNT_NETWORK']);
      expect(() => loadConfig(env)).toThrow(/QNT_NETWORK=.* is forbidden in production: .*testnet/);
    }

    const config = loadConfig({
      ...PRODUCTION_ENV,
      QNT_NETWORK: 'ethereum-mainnet',
      NETWORK_RPC_ETHEREUM_MAINNET: 'https://eth.example.com',
      QNT_TOKEN_ADDRESS: TOKEN,
    });
    expect(qntNetworkOf(config, null)).toMatchObject({ code: 'ethereum-mainnet', tokenAddress: TOKEN });
  });

  it("holds a token another node recorded to the configured one's rules (issue 31)", () => {
    const config = loadConfig(PRODUCTION_ENV);
    const recorded = {
      network: 'ethereum-mainnet',
      tokenAddress: TOKEN,
      networkType: 'mainnet' as const,
      chainId: 1,
      name: 'Ethereum Mainnet',
      rpcUrl: 'https://eth.example.com',
    };
    // A node without QNT_TOKEN_ADDRESS takes the recorded token, through the recorded RPC URL.
    expect(qntNetworkOf(config, recorded)).toEqual({
      code: 'ethereum-mainnet',
      chainId: 1,
      name: 'Ethereum Mainnet',
      rpcUrl: 'https://eth.example.com',
      tokenAddress: TOKEN,
    });
    // Never test QNT: not on a testnet, not at the local token's address, not without a chain.
    const testnet = { ...recorded, network: 'ethereum-testnet', networkType: 'testnet' as const, chainId: 31_337 };
    expect(qntNetworkOf(config, testnet)).toBeNull();
    expect(qntNetworkOf(config, { ...recorded, tokenAddress: LOCAL_QNT_ADDRESS.toLowerCase() })).toBeNull();
    expect(qntNetworkOf(config, { ...recorded, rpcUrl: null })).toBeNull();
  });

  it("refuses anvil's public accounts as the treasury, a deployer key or the rewards treasury", () => {
    const anvil = DEV_ACCOUNTS[0]!;
    expect(
      refusedSettings({
        ...PRODUCTION_ENV,
        QNT_TREASURY_ADDRESS: anvil.address,
        DEPLOYER_PRIVATE_KEY_POLYGON_MAINNET: DEV_ACCOUNTS[3]!.privateKey,
        // In any case: the check compares keys, not spellings.
        REWARD_TREASURY_PRIVATE_KEY: DEV_ACCOUNTS[4]!.privateKey.toUpperCase().replace('0X', '0x'),
      }),
    ).toEqual(['QNT_TREASURY_ADDRESS', 'DEPLOYER_PRIVATE_KEY_POLYGON_MAINNET', 'REWARD_TREASURY_PRIVATE_KEY']);
  });

  it('names the Stripe keys missing when only some are set', () => {
    expect(refusedSettings({ ...PRODUCTION_ENV, STRIPE_SECRET_KEY: 'sk_live_x' })).toEqual([
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]);
  });

  it('mails from, and to, addresses that exist: no placeholder .localhost address, staff alerts to staff', () => {
    // The staff-alert address: STAFF_ALERT_EMAIL, or the administrator's; never the support default.
    const { STAFF_ALERT_EMAIL: _alerts, ...withoutAlerts } = PRODUCTION_ENV;
    expect(refusedSettings(withoutAlerts)).toEqual(['STAFF_ALERT_EMAIL']);
    const admin = loadConfig({ ...withoutAlerts, ADMIN_EMAIL: 'admin@connect.example.com' });
    expect(admin.staffAlertEmail).toBe('admin@connect.example.com');
    expect(loadConfig(PRODUCTION_ENV).staffAlertEmail).toBe(PRODUCTION_ENV.STAFF_ALERT_EMAIL);
    // The development placeholders are not production addresses, whichever setting holds them.
    const { MAIL_FROM: _from, SUPPORT_EMAIL: _support, ...withoutMail } = PRODUCTION_ENV;
    expect(refusedSettings(withoutMail)).toEqual(['MAIL_FROM', 'SUPPORT_EMAIL']);
    const placeholders = {
      ...PRODUCTION_ENV,
      MAIL_FROM: 'Quant Connect <no-reply@connect.localhost>',
      SUPPORT_EMAIL: 'support@connect.localhost',
      STAFF_ALERT_EMAIL: 'alerts@LOCALHOST',
      ADMIN_EMAIL: 'admin@connect.test',
    };
    expect(refusedSettings(placeholders)).toEqual(['MAIL_FROM', 'SUPPORT_EMAIL', 'STAFF_ALERT_EMAIL', 'ADMIN_EMAIL']);
    expect(() => loadConfig(placeholders)).toThrow(
      /SUPPORT_EMAIL=support@connect.localhost is forbidden in production/,
    );
    expect(refusedSettings({ ...PRODUCTION_ENV, SUPPORT_EMAIL: 'not an address' })).toEqual(['SUPPORT_EMAIL']);
  });

  it('knows the development helpers: the dev mailbox and the billing clock are never on in production', () => {
    const config = loadConfig(PRODUCTION_ENV);
    expect(config.devHelpers).toEqual({ mailbox: false, billingClock: false });
    expect(loadConfig({}).devHelpers).toEqual({ mailbox: true, billingClock: true });
    // A configuration that would mount them (built past loadConfig) is refused by the list.
    const mounted = { ...config, devHelpers: { mailbox: true, billingClock: true } };
    expect(productionProblems(mounted, PRODUCTION_ENV).map((p) => p.setting)).toEqual([
      '/api/dev/outbox',
      '/api/dev/billing',
    ]);
  });

  it('applies in production only: development keeps every embedded default', () => {
    const config = loadConfig({ NODE_ENV: 'development', DEVCHAINS: '1', CARD_SANDBOX: 'on' });
    expect(config.chains.devchains.enabled).toBe(true);
    expect(config.cards.sandbox.allowed).toBe(true);
    expect(loadConfig({}).chains.devchains.enabled).toBe(true);
  });
});
