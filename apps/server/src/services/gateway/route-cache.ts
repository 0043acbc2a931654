import { GATEWAY_CACHE_MS } from './credential-cache.ts';
import { capState, microToCredits } from '@connect/shared';
import type { GatewayRepository } from './repository.ts';

/** Where an application's calls to a network go, or why they may not. */
export type GatewayRoute =
  | {
      kind: 'ok';
      networkId: string;
      accountId: string;
      rpcUrl: string;
      /** Calls per second per account on this network: the plan's. */
      rateLimit: number;
      /** The account and network's rate-limit bucket (made once here, not on every call). */
      rateLimitKey: string;
    }
  | { kind: 'unknown-network' }
  | { kind: 'not-associated' }
  | { kind: 'not-active' }
  | { kind: 'plan-inactive' }
  | {
      kind: 'cap-reached';
      /** The application's monthly spending cap, in credits. */
      capCredits: number;
      /** When the UTC month ends (ms): the cap no longer holds the calls back from then. */
      monthEndsMs: number;
    }
  | { kind: 'no-rpc'; networkName: string };

/** A route that forwards. */
export type OpenRoute = Extract<GatewayRoute, { kind: 'ok' }>;

type Entry = { applicationId: string; route: GatewayRoute; checkedUntilMs: number };

const UNKNOWN_NETWORK: GatewayRoute = { kind: 'unknown-network' };
const NOT_ASSOCIATED: GatewayRoute = { kind: 'not-associated' };
const NOT_ACTIVE: GatewayRoute = { kind: 'not-active' };
const PLAN_INACTIVE: GatewayRoute = { kind: 'plan-inactive' };

/**
 * Where an application's requests for a network go, and whether they may: the network must be
 * associated with the application and active (activated) for the application's account, and the
 * account's plan in service; the rate limit is the lower of the network's and the plan's. The
 * network is named by id or code (`/api/gateway/ethereum-testnet`). One read per application and
 * network every GATEWAY_CACHE_MS at most; an announced application change drops its entries.
 *
 * A plan change (an upgrade, a lapse) is not announced here: it shows within GATEWAY_CACHE_MS
 * (2 s), on every node, when the entry is read again. The 'plan.changed' event would not do
 * better: it is delivered once, to one node, by a poll of its own (events/bus.ts), and its
 * subscribers must be the same on every node, whatever services a node serves (modules.ts: subscribe).
 *
 * Spending caps the same way: an application whose month's spend (every node's flushes, see
 * UsageRecorder) is at or over its cap gets 'cap-reached' until the UTC month ends or the cap is
 * raised (announced as an application change). The node whose flush reached the cap forgets the
 * application's routes at once; the others see it when their entry is read again. So the calls
 * let through past a cap are at most those of one flush interval (USAGE_FLUSH_MS) plus one
 * GATEWAY_CACHE_MS on every node; a 'cap-reached' entry is never kept past the month's end.
 */
export class RouteCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly repository: Pick<GatewayRepository, 'findRoute'>) {}

  /** The route this node knows without reading the database, or undefined when it must (see resolve). */
  known(applicationId: string, network: string, nowMs = Date.now()): GatewayRoute | undefined {
    const cached = this.entries.get(`${applicationId}|${network}`);
    return cached && cached.checkedUntilMs > nowMs ? cached.route : undefined;
  }

  async resolve(applicationId: string, network: string, nowMs = Date.now()): Promise<GatewayRoute> {
    const known = this.known(applicationId, network, nowMs);
    if (known) return known;
    const monthStartMs = utcMonthStartMs(nowMs);
    const facts = await this.repository.findRoute(
      applicationId,
      network,
      new Date(monthStartMs).toISOString().slice(0, 10),
    );
    let checkedUntilMs = nowMs + GATEWAY_CACHE_MS;
    let route: GatewayRoute;
    if (!facts) route = UNKNOWN_NETWORK;
    else if (!facts.isAssociated) route = NOT_ASSOCIATED;
    else if (!facts.isActive) route = NOT_ACTIVE;
    else if (!facts.inService) route = PLAN_INACTIVE;
    else if (facts.capMicro !== null && capState(facts.monthMicro, facts.capMicro) === 'REACHED') {
      const monthEndsMs = nextUtcMonthStartMs(monthStartMs);
      route = { kind: 'cap-reached', capCredits: microToCredits(facts.capMicro), monthEndsMs };
      checkedUntilMs = Math.min(checkedUntilMs, monthEndsMs);
    } else if (!facts.rpcUrl) route = { kind: 'no-rpc', networkName: facts.networkName };
    else
      route = {
        kind: 'ok',
        networkId: facts.networkId,
        accountId: facts.accountId,
        rpcUrl: facts.rpcUrl,
        rateLimit: facts.rateLimit,
        rateLimitKey: `${facts.accountId}|${facts.networkId}`,
      };
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(`${applicationId}|${network}`, { applicationId, route, checkedUntilMs });
    return route;
  }

  forgetApplication(applicationId: string): void {
    for (const [key, entry] of this.entries) if (entry.applicationId === applicationId) this.entries.delete(key);
  }

  forgetAll(): void {
    this.entries.clear();
  }
}

/** The start of the UTC month of a time (ms). */
export function utcMonthStartMs(nowMs: number): number {
  const date = new Date(nowMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The start of the UTC month after the one starting at `monthStartMs`. */
function nextUtcMonthStartMs(monthStartMs: number): number {
  const date = new Date(monthStartMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}
