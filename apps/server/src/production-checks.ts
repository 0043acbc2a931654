import { DEV_ACCOUNTS } from '@connect/devchain';
import { envSuffix } from './adapters/chains/catalogue.ts';
import { LOCAL_QNT_ADDRESS } from './adapters/chains/qnt-token.ts';
import type { Config } from './config.ts';

/**
 * The production configuration's one checked list (issue 27 §1; docs/decisions.md "Production
 * configuration and who the client is"). With NODE_ENV=production, loadConfig refuses to load
 * while any check below names a setting, and names every one of them in one message, so an
 * operator fixes them all at once instead of one start at a time.
 *
 * What it holds: the settings production needs (secrets, the database, the public address, mail),
 * the development conveniences that would let a customer pay with money nobody owns (anvil's
 * chains and their public accounts, the card sandbox, the KYC sandbox where users pick their own
 * result, sign-ups without a captcha minting trial credits), and QNT taken only on a network the
 * operator configured for it. The dev mailbox and the dev billing clock have no setting: they are
 * never mounted in production (routes/system.ts).
 */

/** One refused setting: its name, the value it was given when that is what is refused, and why. */
export type ProductionProblem = { setting: string; value?: string; problem: string };

/** The environment as loadConfig read it (empty values already dropped). */
type Env = Readonly<Record<string, string | undefined>>;

type Check = (config: Config, env: Env) => ProductionProblem | ProductionProblem[] | undefined;

const required = (setting: string, why: string): ProductionProblem => ({ setting, problem: `is required: ${why}` });
const forbidden = (setting: string, env: Env, why: string): ProductionProblem => ({
  setting,
  ...(env[setting] ? { value: env[setting] } : {}),
  problem: `is forbidden in production: ${why}`,
});

const DEV_ADDRESSES = new Set(DEV_ACCOUNTS.map((account) => account.address.toLowerCase()));
const DEV_KEYS = new Set(DEV_ACCOUNTS.map((account) => account.privateKey.toLowerCase()));

/** In the order they are reported. */
const PRODUCTION_CHECKS: readonly Check[] = [
  (config) =>
    config.secretKey
      ? undefined
      : required('SECRET_KEY', 'it encrypts signing keys and TOTP secrets at rest (keep it with the backups)'),
  (config) =>
    config.databaseUrl
      ? undefined
      : required('DATABASE_URL', 'production data lives in PostgreSQL, not in the embedded PGlite under DATA_DIR'),
  (_config, env) =>
    env.PUBLIC_URL
      ? undefined
      : required('PUBLIC_URL', 'it names the token issuer, the OAuth issuer and every link in emails'),
  (config) =>
    config.smtpUrl
      ? undefined
      : required(
          'SMTP_URL',
          'without it no email leaves the server, and the dev mailbox is never served in production',
        ),

  (config, env) =>
    config.chains.devchains.enabled
      ? forbidden('DEVCHAINS', env, "local chains fund anvil's ten public accounts, whose keys everyone knows")
      : undefined,
  (config, env) =>
    config.cards.sandbox.allowed
      ? forbidden('CARD_SANDBOX', env, 'the card sandbox takes test card numbers as payment')
      : undefined,
  (config, env) =>
    config.kyc.sandboxAllowed
      ? forbidden('KYC_SANDBOX', env, 'in the KYC sandbox users choose their own verification result')
      : undefined,
  (config, env) =>
    !config.signUpCaptcha && config.identity.mode === 'embedded'
      ? forbidden('SIGNUP_CAPTCHA', env, 'sign-ups by script would each take the trial credits')
      : undefined,

  checkQnt,
  (config, env) =>
    config.qnt.treasuryAddress && DEV_ADDRESSES.has(config.qnt.treasuryAddress)
      ? forbidden('QNT_TREASURY_ADDRESS', env, "it is one of anvil's public accounts: anyone could take what is swept")
      : undefined,
  (config) =>
    config.chains.networks
      .filter((n) => n.deployerKeyFromEnv && n.deployerPrivateKey && DEV_KEYS.has(n.deployerPrivateKey.toLowerCase()))
      .map((n) => ({
        setting: `DEPLOYER_PRIVATE_KEY_${envSuffix(n.code)}`,
        problem: "is one of anvil's public keys and forbidden in production: anyone could sign as the platform",
      })),
  (_config, env) => {
    const stripe = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'];
    const set = stripe.filter((name) => env[name]);
    if (set.length === 0) return undefined;
    return stripe
      .filter((name) => !env[name])
      .map((name) => required(name, `card payments through Stripe need all three keys (${set.join(', ')} set)`));
  },
];

/**
 * QNT is optional in production: without QNT_TOKEN_ADDRESS it is simply not offered. When it is
 * configured, it is taken only on its network's explicitly configured RPC URL, never on a chain on
 * this machine's loopback standing in for a testnet, and never at the address where anvil's public
 * account deploys the local token (anyone can deploy a token of their own there on any chain).
 */
function checkQnt(config: Config, env: Env): ProductionProblem[] {
  const { tokenAddress, network: code } = config.qnt;
  if (!tokenAddress) return [];
  const problems: ProductionProblem[] = [];
  const network = config.chains.networks.find((n) => n.code === code);
  if (!network) {
    problems.push(forbidden('QNT_NETWORK', env, `it names no network of the catalogue`));
  } else if (!network.rpcFromEnv) {
    problems.push(
      required(
        `NETWORK_RPC_${envSuffix(code)}`,
        `QNT_TOKEN_ADDRESS is set, and QNT is taken on QNT_NETWORK (${code}) through its configured RPC URL only`,
      ),
    );
  } else if (network.isLocal) {
    problems.push(
      forbidden('QNT_NETWORK', env, `${code}'s RPC URL is a local chain on loopback (a development stand-in)`),
    );
  }
  if (tokenAddress === LOCAL_QNT_ADDRESS.toLowerCase()) {
    problems.push(
      forbidden('QNT_TOKEN_ADDRESS', env, "it is the local QNT token's address, deployed by anvil's public account"),
    );
  }
  return problems;
}

/** Everything the configuration gets wrong for production, in the list's order (none: it may start). */
export function productionProblems(config: Config, env: Env): ProductionProblem[] {
  return PRODUCTION_CHECKS.flatMap((check) => check(config, env) ?? []);
}

/** The message that stops a production start: one line per refused setting, each starting with its name. */
export function productionProblemsMessage(problems: readonly ProductionProblem[]): string {
  return [
    'Invalid configuration for production (NODE_ENV=production); fix each of these and start again:',
    ...problems.map((p) => `  - ${p.setting}${p.value ? `=${p.value}` : ''} ${p.problem}`),
  ].join('\n');
}
