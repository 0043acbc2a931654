import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
// The zod-free entry: the whole package's schemas would load before the database starts opening.
import type { TInvoiceParty, TOutsideTools } from '@connect/shared';
import { DEFAULT_VAT_RATES_BP, SERVICES, type ServiceName } from '@connect/shared/light';
import { loadChainsConfig, type ChainsConfig } from './adapters/chains/chain-config.ts';
import { loadOutsideTools } from './config-outside-tools.ts';
import { productionProblems, productionProblemsMessage } from './production-checks.ts';

const ZEnv = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** The proxies whose X-Forwarded-For names the client (addresses or CIDRs); unset: the socket's peer is the client. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  PUBLIC_URL: z.string().optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z.string().optional(),
  SERVICES: z.string().optional(),
  PRODUCT_NAME: z.string().default('Quant Connect'),
  PRODUCT_SLUG: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/)
    .default('quant'),
  SECRET_KEY: z.string().optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Quant Connect <no-reply@connect.localhost>'),
  REDIS_URL: z.string().optional(),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1_000),
  IDP_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300),
  LOG_LEVEL: z.string().default('info'),
  DOCUMENTATION_URL: z.url().default('https://docs.quant.network/'),
  /**
   * The product catalogue's basic authentication (/jsons, spec §7). The SPA is given them in its
   * runtime configuration, so they are public: they keep casual crawlers out, nothing more.
   */
  PRODUCT_CATALOGUE_USER: z
    .string()
    .regex(/^[^:\s]{1,64}$/, 'no colon or space, at most 64 characters')
    .default('catalogue'),
  PRODUCT_CATALOGUE_PASSWORD: z
    .string()
    .regex(/^\S{1,128}$/, 'no space, at most 128 characters')
    .default('public-catalogue'),
  RECAPTCHA_SITE_KEY: z.string().optional(),
  SUPPORT_EMAIL: z.string().default('support@connect.localhost'),
  /** Where staff alerts are mailed (issue 27 §4); unset: ADMIN_EMAIL, else SUPPORT_EMAIL. */
  STAFF_ALERT_EMAIL: z.string().optional(),
  /** Pay as you go: how far the credits may go below zero before the month-end bill (docs/decisions/plans-and-orders.md). */
  PAYG_CREDIT_LIMIT: z.coerce.number().int().min(0).default(1_000),
  /** US dollars per pound for orders mixing the fee (pounds) and bundles (dollars) until a prices adapter is configured. */
  USD_PER_GBP: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default('1.27'),
  /**
   * QNT payments (issue 15): the token on the network QNT_NETWORK; on a local chain it is deployed
   * at start when unset. Development defaults to the local testnet; production has no default
   * (a mainnet is named with QNT_TOKEN_ADDRESS, production-checks.ts).
   */
  QNT_NETWORK: z.string().optional(),
  QNT_TOKEN_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional(),
  /** The extended public key deposit addresses derive from (m/44'/60'/0'/0/i); embedded default: a generated seed. */
  QNT_DEPOSIT_XPUB: z.string().optional(),
  /** Where swept deposits go; embedded default: the seed's treasury address. */
  QNT_TREASURY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional(),
  QNT_CONFIRMATIONS: z.coerce.number().int().min(1).max(100).default(3),
  /** The prices adapter's embedded default: pounds per QNT (a fixed table until a price feed is configured). */
  QNT_GBP_PRICE: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default('80'),
  /** A price feed answering CoinGecko's /simple/price shape; the fixed table above when unset. */
  QNT_PRICE_FEED_URL: z.url().optional(),
  QNT_QUOTE_MINUTES: z.coerce.number().int().min(1).max(1_440).default(60),
  /** An under-payment within this share of the amount due settles (0.005 = 0.5 %). */
  QNT_UNDERPAY_TOLERANCE: z
    .string()
    .regex(/^0(\.\d+)?$/)
    .default('0.005'),
  /**
   * Rewards (issue 34): the treasury claims are paid from, in QNT on QNT_NETWORK. Unset on a local
   * chain: a key generated once per installation (sealed in the database) and funded at start.
   */
  REWARD_TREASURY_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex private key')
    .optional(),
  /** The smallest claim, in QNT (at most 18 decimals, more than 0). */
  REWARD_MIN_CLAIM_QNT: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,18})?$/, 'QNT with at most 18 decimals')
    .refine((v) => /[1-9]/.test(v), 'more than 0')
    .default('1'),
  CHAIN_FOLLOWER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  CHAIN_FOLLOWER_MAX_BLOCKS: z.coerce.number().int().min(1).max(10_000).default(2_000),
  /** Where customers send bank transfers (embedded defaults are a sample account, marked as such). */
  BANK_ACCOUNT_NAME: z.string().default('Connect Sandbox Ltd (sample account)'),
  BANK_NAME: z.string().default('Sandbox Bank plc'),
  BANK_SORT_CODE: z.string().default('00-00-00'),
  BANK_ACCOUNT_NUMBER: z.string().default('00000000'),
  BANK_IBAN: z.string().default('GB00SAND00000000000000'),
  BANK_BIC: z.string().default('SANDGB2L'),
  /** Invoices (issue 18): hours a month's invoice stays a draft after the month ends (late usage still counts). */
  INVOICE_GRACE_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 28)
    .default(24),
  /** VAT rates as JSON `{"GB":2000,…}` in basis points; the UK and EU-27 table when unset. */
  VAT_RATES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(value);
      } catch {
        json = null;
      }
      const parsed = z.record(z.string().regex(/^[A-Z]{2}$/), z.number().int().min(0).max(10_000)).safeParse(json);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: 'VAT_RATES must be JSON like {"GB":2000}.' });
        return z.NEVER;
      }
      return parsed.data;
    }),
  /** The VIES REST service VAT numbers are checked against; the embedded sandbox (format only) when unset. */
  VAT_CHECK_URL: z.url().optional(),
  /** The issuer printed on every invoice (embedded defaults are a sample company, marked as such). */
  ISSUER_NAME: z.string().default('Connect Sandbox Ltd (sample issuer)'),
  /** Address lines separated by "|". */
  ISSUER_ADDRESS: z.string().default('1 Sample Street|London|EC1A 1AA|United Kingdom'),
  ISSUER_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .default('GB'),
  ISSUER_REGISTRATION_NUMBER: z.string().default('00000000'),
  ISSUER_VAT_NUMBER: z.string().default('GB000000000'),
  ISSUER_WEBSITE: z.string().default('https://connect.localhost'),
  ISSUER_TELEPHONE: z.string().default('+44 20 0000 0000'),
  ISSUER_EMAIL: z.string().default('billing@connect.localhost'),
  SIGNUP_CAPTCHA: z.enum(['on', 'off']).default('on'),
  RECAPTCHA_SECRET_KEY: z.string().optional(),
  USER_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Gateway answers shared between callers (eth_chainId, net_version, eth_blockNumber for 250 ms); `off` forwards every call. */
  GATEWAY_CACHE: z.enum(['on', 'off']).default('on'),
  WEB_DIST: z.string().optional(),
  /** Identity verification: Onfido when an API token is set, otherwise the embedded sandbox. */
  ONFIDO_API_TOKEN: z.string().optional(),
  ONFIDO_REGION: z.enum(['EU', 'US', 'CA', 'eu', 'us', 'ca']).default('EU'),
  ONFIDO_WEBHOOK_TOKEN: z.string().optional(),
  ONFIDO_API_URL: z.url().optional(),
  KYC_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_000),
  /** Whether the embedded sandbox may verify identities when Onfido is not configured (off in production unless set). */
  KYC_SANDBOX: z.enum(['on', 'off']).optional(),
  /** Card payments (issue 16): Stripe when its three keys are set; otherwise the embedded sandbox that speaks Stripe. */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** The sandbox's Stripe API listens on 127.0.0.1 at this port (0: any free port). */
  CARD_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(12_111),
  /** Whether the card sandbox may take payments without Stripe (default: on except in production). */
  CARD_SANDBOX: z.enum(['on', 'off']).optional(),
  /** Real AWS Cognito: set all three to switch the identity pool to AWS. */
  COGNITO_USER_POOL_ID: z.string().optional(),
  COGNITO_CLIENT_ID: z.string().optional(),
  COGNITO_REGION: z.string().default('us-east-1'),
  /** Embedded pool ids; generated on first start and stored when absent. */
  IDP_POOL_ID: z
    .string()
    .regex(/^[a-z]{2}-[a-z]+-\d_[0-9A-Za-z]+$/)
    .optional(),
  IDP_CLIENT_ID: z.string().optional(),
});

export type Config = {
  env: string;
  isProduction: boolean;
  port: number;
  host: string;
  /**
   * Fastify's `trustProxy`: the proxies (addresses, CIDRs, or proxy-addr's `loopback`,
   * `linklocal`, `uniquelocal`) whose X-Forwarded-For is believed; false: the client is the
   * socket's peer, whatever the request claims.
   */
  trustProxy: string[] | false;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  services: ServiceName[];
  productName: string;
  productSlug: string;
  version: string;
  secretKey: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  rateLimitMax: number;
  idpRateLimitMax: number;
  logLevel: string;
  documentationUrl: string;
  /** The product catalogue's basic-authentication credentials (public: the SPA is given them). */
  productCatalogue: { username: string; password: string };
  /** Where support and authorise enquiries are sent. */
  supportEmail: string;
  /** Where staff alerts are mailed: STAFF_ALERT_EMAIL, else ADMIN_EMAIL, else SUPPORT_EMAIL. */
  staffAlertEmail: string;
  /**
   * The development helpers (/api/dev/*, routes/system.ts): the mailbox and the billing clock.
   * Never in production (on the production list, production-checks.ts).
   */
  devHelpers: { mailbox: boolean; billingClock: boolean };
  qnt: {
    /** The catalogue code of QNT's network; '' in production when QNT_NETWORK is unset (no QNT). */
    network: string;
    tokenAddress: string | null;
    depositXpub: string | null;
    treasuryAddress: string | null;
    confirmations: number;
    gbpPrice: string;
    priceFeedUrl: string | null;
    quoteMinutes: number;
    underpayTolerance: string;
  };
  /** Rewards (issue 34): the claims' treasury key (none: generated on a local chain) and the smallest claim. */
  rewards: { treasuryPrivateKey: `0x${string}` | null; minClaimQnt: string };
  follower: { pollMs: number; maxBlocks: number };
  billing: {
    paygCreditLimit: number;
    usdPerGbp: string;
    bank: { accountName: string; bankName: string; sortCode: string; accountNumber: string; iban: string; bic: string };
  };
  /** Invoices (issue 18): the grace window, the VAT table, the VAT number check and the issuer. */
  invoices: {
    graceHours: number;
    vatRates: Readonly<Record<string, number>>;
    vatCheckUrl: string | undefined;
    issuer: TInvoiceParty;
  };
  /** Whether the embedded pool's SignUp requires a solved captcha in its validation data. */
  signUpCaptcha: boolean;
  /** Google reCAPTCHA for sign-up when both keys are set; otherwise the self-hosted proof of work. */
  recaptcha: { siteKey: string; secretKey: string } | undefined;
  userCacheMs: number;
  /** Whether the gateway answers eth_chainId, net_version and eth_blockNumber from its short-lived cache. */
  gatewayCache: boolean;
  webDist: string;
  cards: {
    stripe: { secretKey: string; publishableKey: string; webhookSecret: string } | undefined;
    sandbox: { allowed: boolean; port: number };
  };
  kyc: {
    onfido:
      { apiToken: string; region: string; webhookToken: string | undefined; apiUrl: string | undefined } | undefined;
    /** How long a sandbox check stays PENDING before the tester's chosen outcome applies. */
    sandboxDelayMs: number;
    /** Whether the sandbox may start checks (without Onfido); false leaves verification unavailable. */
    sandboxAllowed: boolean;
  };
  /** Local chains, the network catalogue's RPC URLs and deployer keys, the health monitor. */
  chains: ChainsConfig;
  /** The page's outside tools that are configured (config-outside-tools.ts); none: the embedded defaults. */
  outsideTools: TOutsideTools;
  identity:
    | { mode: 'embedded'; region: string; poolId: string | undefined; clientId: string | undefined }
    | { mode: 'cognito'; region: string; poolId: string; clientId: string };
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set" (`DATABASE_URL= npm start` falls back to PGlite).
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = ZEnv.safeParse(present);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${fields.join('; ')}`);
  }
  const e = parsed.data;
  const services = e.SERVICES
    ? e.SERVICES.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [...SERVICES];
  const unknown = services.filter((s) => !(SERVICES as readonly string[]).includes(s));
  if (unknown.length) throw new Error(`Invalid configuration: SERVICES names unknown services ${unknown.join(', ')}`);
  const isProduction = e.NODE_ENV === 'production';
  const identity: Config['identity'] =
    e.COGNITO_USER_POOL_ID && e.COGNITO_CLIENT_ID
      ? { mode: 'cognito', region: e.COGNITO_REGION, poolId: e.COGNITO_USER_POOL_ID, clientId: e.COGNITO_CLIENT_ID }
      : { mode: 'embedded', region: 'us-east-1', poolId: e.IDP_POOL_ID, clientId: e.IDP_CLIENT_ID };
  const config: Config = {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    services: services as ServiceName[],
    productName: e.PRODUCT_NAME,
    productSlug: e.PRODUCT_SLUG,
    version: process.env.npm_package_version ?? '0.1.0',
    secretKey: e.SECRET_KEY,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL || undefined,
    rateLimitMax: e.RATE_LIMIT_MAX,
    idpRateLimitMax: e.IDP_RATE_LIMIT_MAX,
    logLevel: e.LOG_LEVEL,
    documentationUrl: e.DOCUMENTATION_URL,
    productCatalogue: { username: e.PRODUCT_CATALOGUE_USER, password: e.PRODUCT_CATALOGUE_PASSWORD },
    supportEmail: e.SUPPORT_EMAIL,
    staffAlertEmail: e.STAFF_ALERT_EMAIL || e.ADMIN_EMAIL || e.SUPPORT_EMAIL,
    devHelpers: { mailbox: !isProduction, billingClock: !isProduction },
    qnt: {
      network: e.QNT_NETWORK ?? (isProduction ? '' : 'ethereum-testnet'),
      tokenAddress: e.QNT_TOKEN_ADDRESS?.toLowerCase() ?? null,
      depositXpub: e.QNT_DEPOSIT_XPUB ?? null,
      treasuryAddress: e.QNT_TREASURY_ADDRESS?.toLowerCase() ?? null,
      confirmations: e.QNT_CONFIRMATIONS,
      gbpPrice: e.QNT_GBP_PRICE,
      priceFeedUrl: e.QNT_PRICE_FEED_URL ?? null,
      quoteMinutes: e.QNT_QUOTE_MINUTES,
      underpayTolerance: e.QNT_UNDERPAY_TOLERANCE,
    },
    rewards: {
      treasuryPrivateKey: (e.REWARD_TREASURY_PRIVATE_KEY?.toLowerCase() as `0x${string}` | undefined) ?? null,
      minClaimQnt: e.REWARD_MIN_CLAIM_QNT,
    },
    follower: { pollMs: e.CHAIN_FOLLOWER_POLL_MS, maxBlocks: e.CHAIN_FOLLOWER_MAX_BLOCKS },
    billing: {
      paygCreditLimit: e.PAYG_CREDIT_LIMIT,
      usdPerGbp: e.USD_PER_GBP,
      bank: {
        accountName: e.BANK_ACCOUNT_NAME,
        bankName: e.BANK_NAME,
        sortCode: e.BANK_SORT_CODE,
        accountNumber: e.BANK_ACCOUNT_NUMBER,
        iban: e.BANK_IBAN,
        bic: e.BANK_BIC,
      },
    },
    invoices: {
      graceHours: e.INVOICE_GRACE_HOURS,
      vatRates: e.VAT_RATES ?? DEFAULT_VAT_RATES_BP,
      vatCheckUrl: e.VAT_CHECK_URL,
      issuer: {
        companyName: e.ISSUER_NAME,
        address: e.ISSUER_ADDRESS.split('|')
          .map((line) => line.trim())
          .filter(Boolean),
        country: e.ISSUER_COUNTRY,
        registrationNumber: e.ISSUER_REGISTRATION_NUMBER || null,
        vatNumber: e.ISSUER_VAT_NUMBER || null,
        website: e.ISSUER_WEBSITE || null,
        telephone: e.ISSUER_TELEPHONE || null,
        email: e.ISSUER_EMAIL || null,
      },
    },
    signUpCaptcha: e.SIGNUP_CAPTCHA === 'on',
    recaptcha:
      e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET_KEY
        ? { siteKey: e.RECAPTCHA_SITE_KEY, secretKey: e.RECAPTCHA_SECRET_KEY }
        : undefined,
    userCacheMs: e.USER_CACHE_MS,
    gatewayCache: e.GATEWAY_CACHE === 'on',
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    cards: {
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: e.STRIPE_SECRET_KEY,
              publishableKey: e.STRIPE_PUBLISHABLE_KEY,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            }
          : undefined,
      sandbox: {
        allowed: e.CARD_SANDBOX ? e.CARD_SANDBOX === 'on' : !isProduction,
        port: e.CARD_SANDBOX_PORT,
      },
    },
    kyc: {
      onfido: e.ONFIDO_API_TOKEN
        ? {
            apiToken: e.ONFIDO_API_TOKEN,
            region: e.ONFIDO_REGION.toUpperCase(),
            webhookToken: e.ONFIDO_WEBHOOK_TOKEN,
            apiUrl: e.ONFIDO_API_URL,
          }
        : undefined,
      sandboxDelayMs: e.KYC_SANDBOX_DELAY_MS,
      sandboxAllowed: e.KYC_SANDBOX ? e.KYC_SANDBOX === 'on' : !isProduction,
    },
    chains: loadChainsConfig(present, path.resolve(e.DATA_DIR)),
    outsideTools: loadOutsideTools(present),
    identity,
  };
  // Production starts only from a configuration that passes the one checked list, naming every
  // setting it refuses at once (production-checks.ts).
  if (isProduction) {
    const problems = productionProblems(config, present);
    if (problems.length) throw new Error(productionProblemsMessage(problems));
  }
  return config;
}

/** proxy-addr's named ranges, accepted by Fastify's trustProxy beside addresses and CIDRs. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset, `off`, `0` or `false` trust no proxy; otherwise a comma-separated list of
 * addresses, CIDRs and proxy-addr's named ranges. Trusting every peer (`true`) or a hop count is
 * refused: either lets a client that reaches the server directly choose its own address (and
 * Fastify 5 ignores X-Forwarded-For for a bare hop count anyway). Answers the list, false, or
 * the reason it is refused.
 */
export function parseTrustProxy(value: string | undefined): string[] | false | string {
  const trimmed = value?.trim().toLowerCase() ?? '';
  if (['', 'off', '0', 'false'].includes(trimmed)) return false;
  if (['on', 'true', '*'].includes(trimmed) || /^\d+$/.test(trimmed)) {
    return "name the proxies' addresses or CIDRs (trusting every peer, or a hop count, lets any client choose its address)";
  }
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => {
    if (PROXY_RANGES.includes(entry)) return false;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) return true;
    if (prefix === undefined) return false;
    return !/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128);
  });
  if (wrong.length) return `not an address, CIDR or ${PROXY_RANGES.join('/')}: ${wrong.join(', ')}`;
  return entries;
}
