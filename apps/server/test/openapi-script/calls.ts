import { randomUUID } from 'node:crypto';
import { TEST_POOL_ID } from '../helpers.ts';

/*
 * What the script's sections share (openapi-script.ts puts them in order): the shape of a call,
 * what the calls leave for the ones after them, and the small makers of the common calls.
 */

export type Caller = 'user' | 'admin' | 'none' | 'application';
export type Request = {
  url: string;
  as?: Caller;
  body?: unknown;
  /** A body that is not JSON (the token endpoint's form). */
  raw?: { type: string; text: string };
  headers?: Record<string, string>;
};

/** What the calls leave behind for the calls after them. */
export type State = Record<string, string>;
/** Waits that a call needs before it is sent. */
export type Helpers = {
  /** Until the token's deployment is settled (ACTIVE or FAILED). */
  settle: (tokenId: string) => Promise<void>;
  /** Onfido finishes the user's check; answers its Onfido id. */
  completeCheck: () => Promise<string>;
  /** Delivers the domain events written so far (the notifications they make). */
  deliverEvents: () => Promise<void>;
  /** The installation's card webhook secret (the sandbox signs with it). */
  cardWebhookSecret: () => Promise<string>;
  /** Raises a staff alert (as a lost QNT transfer would); answers its id. */
  raiseStaffAlert: () => Promise<string>;
  /** A new customer on a plan bought with QNT (rewards are open to them): their authorization header. */
  rewardsCustomer: () => Promise<string>;
  /** Such a customer with 10 reward QNT earned (claims): their authorization header. */
  rewardClaimant: () => Promise<string>;
};

export type Call = {
  operation: string;
  send: (s: State, h: Helpers) => Request | Promise<Request>;
  status: number;
  /** Sent this many times at once (to reach a limit); the answer recorded is one with `status`. */
  burst?: number;
  /** Keeps what later calls need from the answer. */
  keep?: (body: never, s: State) => void;
};

export const WEBHOOK_TOKEN = 'whk-secret';
export const IDP_TARGET = 'AWSCognitoIdentityProviderService.';
export const JWKS = `/idp/${TEST_POOL_ID}/.well-known/jwks.json`;
export const OPENID = `/idp/${TEST_POOL_ID}/.well-known/openid-configuration`;

/** A PUT or POST of a fixed body that answers 200. */
export const write = (method: 'POST' | 'PUT', url: string, body: unknown): Call => ({
  operation: `${method} ${url}`,
  send: () => ({ url, body }),
  status: 200,
});

/** A GET that answers 200: its operation is its path. */
export const get = (url: string, as?: Caller): Call => ({
  operation: `GET ${url.split('?')[0]}`,
  send: () => ({ url, ...(as ? { as } : {}) }),
  status: 200,
});

/**
 * A credits order of the user who signs out last (a trial account of its own), paid by bank
 * transfer, QNT or card; its id is kept as `s[keepAs]` for the calls that pay, cancel or refund it.
 */
export const creditsOrder = (paymentMethod: 'BANK_TRANSFER' | 'QNT' | 'FIAT', keepAs: string): Call => ({
  operation: 'POST /api/account-plan/order/credits',
  send: (s) => ({
    url: '/api/account-plan/order/credits',
    headers: { authorization: s.leaving! },
    body: {
      idempotencyKey: randomUUID(),
      creditBundleId: s.bundle,
      paymentMethod,
      terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
    },
  }),
  status: 200,
  keep: (body: { id: string }, s) => {
    s[keepAs] = body.id;
  },
});
