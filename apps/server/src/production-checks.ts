import { DEV_ACCOUNTS } from '@connect/devchain';
import { envSuffix } from './adapters/chains/catalogue.ts';
import { LOCAL_QNT_ADDRESS } from './adapters/chains/local-qnt.ts';
import type { Config } from './config.ts';

/**
 * The production configuration's one checked list (issue 27 §1; docs/decisions/platform-and-operations.md "Production
 * configuration and who the client is"). With NODE_ENV=production, loadConfig refuses to load
 * while any check below names a setting, and names every one of them in one message, so an
 * operator fixes them all at once instead of one start at a time.
 *
 * What it holds: the settings production needs (secrets, the database, the public address, mail),
 * the development conveniences that would let a customer pay with money nobody owns (anvil's
 * chains and their public accounts, the card sandbox, the KYC sandbox where users pick their own
 * result, sign-ups without a captcha minting trial credits), QNT taken only on a mainnet the
 * operator configured for it, mail sent from and to real addresses (no development placeholder),
 * and the development helpers — the dev mailbox and the dev billing clock, mounted by
 * routes/system.ts from `config.devHelpers` — off.
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
  ...mailChecks(),

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
  (config) =>
    config.devHelpers.mailbox
      ? {
          setting: '/api/dev/outbox',
          problem: 'would be served in production: the dev mailbox shows every sign-up and password-reset code',
        }
      : undefined,
  (config) =>
    config.devHelpers.billingClock
      ? {
          setting: '/api/dev/billing',
          problem: "would be served in production: the dev billing clock runs and closes any month's billing on demand",
        }
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
  (config) =>
    config.rewards.treasuryPrivateKey && DEV_KEYS.has(config.rewards.treasuryPrivateKey)
      ? {
          setting: 'REWARD_TREASURY_PRIVATE_KEY',
          problem: "is one of anvil's public keys and forbidden in production: anyone could empty the rewards treasury",
        }
      : undefined,
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
 * Top-level domains that deliver no mail (RFC 2606, RFC 6761; `.local` is multicast DNS): the
 * development defaults of MAIL_FROM and SUPPORT_EMAIL are `…@connect.localhost`.
 */
const UNDELIVERABLE_TLDS = new Set(['localhost', 'local', 'test', 'example', 'invalid']);

/** The domain of `a@b.c` or `Name <a@b.c>`, lower case; null when the value is no address. */
function mailDomain(value: string): string | null {
  const address = /<([^<>]*)>\s*$/.exec(value)?.[1] ?? value;
  const match = /^[^\s@<>]+@([^\s@<>]+)$/.exec(address.trim());
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : null;
}

/** Why a mail setting's address cannot be used in production, or undefined. */
function mailProblem(value: string): string | undefined {
  const domain = mailDomain(value);
  if (!domain) return 'is not an email address';
  const tld = domain.split('.').pop()!;
  return UNDELIVERABLE_TLDS.has(tld) ? `its domain (${domain}) receives no mail: a development placeholder` : undefined;
}

/**
 * Mail in production (issue 27 review): sent from, and naming, addresses that exist. MAIL_FROM and
 * SUPPORT_EMAIL default to development placeholders (…@connect.localhost), so production requires
 * them set; staff alerts (QNT taken back, …) go to STAFF_ALERT_EMAIL or the administrator
 * (ADMIN_EMAIL), never to the support default. Every address set is refused on a domain that
 * receives no mail.
 */
function mailChecks(): Check[] {
  const requiredAddress =
    (setting: 'MAIL_FROM' | 'SUPPORT_EMAIL', why: string): Check =>
    (_config, env) =>
      env[setting] ? undefined : required(setting, why);
  const deliverable =
    (setting: string): Check =>
    (_config, env) => {
      const value = env[setting];
      const problem = value ? mailProblem(value) : undefined;
      return problem ? { setting, value, problem: `is forbidden in production: ${problem}` } : undefined;
    };
  return [
    requiredAddress('MAIL_FROM', "every email's sender; the default (no-reply@connect.localhost) is a placeholder"),
    deliverable('MAIL_FROM'),
    requiredAddress(
      'SUPPORT_EMAIL',
      'customers are told to write to it; the default (support@connect.localhost) is a placeholder',
    ),
    deliverable('SUPPORT_EMAIL'),
    (_config, env) =>
      env.STAFF_ALERT_EMAIL || env.ADMIN_EMAIL
        ? undefined
        : required(
            'STAFF_ALERT_EMAIL',
            'or ADMIN_EMAIL: staff alerts (QNT taken back by a reorganisation, …) would otherwise go to SUPPORT_EMAIL',
          ),
    deliverable('STAFF_ALERT_EMAIL'),
    deliverable('ADMIN_EMAIL'),
  ];
}

/**
 * QNT is optional in production: without QNT_TOKEN_ADDRESS it is simply not offered. When it is
 * configured, QNT_NETWORK must name a mainnet of the catalogue (production has no default network:
 * development's is a testnet, and QNT on any testnet — Sepolia, a docker anvil, a node on the LAN,
 * not only one on loopback — is test QNT anyone can get for free), reached through its explicitly
 * configured RPC URL, and never at the address where anvil's public account deploys the local
 * token (anyone can deploy a token of their own there on any chain).
 */
function checkQnt(config: Config, env: Env): ProductionProblem[] {
  const { tokenAddress, network: code } = config.qnt;
  if (!tokenAddress) return [];
  const problems: ProductionProblem[] = [];
  const network = config.chains.networks.find((n) => n.code === code);
  if (!env.QNT_NETWORK) {
    problems.push(required('QNT_NETWORK', 'QNT_TOKEN_ADDRESS is set: name the mainnet of the catalogue it is on'));
  } else if (!network) {
    problems.push(forbidden('QNT_NETWORK', env, `it names no network of the catalogue`));
  } else if (network.networkType !== 'mainnet') {
    problems.push(
      forbidden('QNT_NETWORK', env, `${code} is a ${network.networkType} network: QNT there is free test QNT`),
    );
  } else if (!network.rpcFromEnv) {
    problems.push(
      required(
        `NETWORK_RPC_${envSuffix(code)}`,
        `QNT_TOKEN_ADDRESS is set, and QNT is taken on QNT_NETWORK (${code}) through its configured RPC URL only`,
      ),
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
