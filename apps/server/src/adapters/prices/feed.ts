import type { PriceQuote, PriceSource } from './port.ts';

/** A price older than this is not quoted (a feed that stopped updating). */
const MAX_AGE_MS = 15 * 60_000;
/** Read at most this often; quotes in between reuse the last reading. */
const CACHE_MS = 30_000;
const TIMEOUT_MS = 5_000;

type Answer = Record<string, { gbp?: number; last_updated_at?: number } | undefined>;

/**
 * A price feed speaking CoinGecko's `/simple/price` answer
 * (`?ids=quant-network&vs_currencies=gbp&include_last_updated_at=true` →
 * `{ "quant-network": { "gbp": 81.23, "last_updated_at": 1764150000 } }`), configured by
 * `QNT_PRICE_FEED_URL` (the whole URL, with its API key if the plan needs one).
 */
export class FeedPrices implements PriceSource {
  private last: { quote: PriceQuote; readAt: number } | undefined;

  constructor(
    private readonly url: string,
    private readonly now: () => number = Date.now,
  ) {}

  async qntInGbp(): Promise<PriceQuote> {
    if (this.last && this.now() - this.last.readAt < CACHE_MS) return this.last.quote;
    const res = await fetch(this.url, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!res.ok) throw new Error(`The price feed answered ${res.status}`);
    const body = (await res.json()) as Answer;
    const entry = body['quant-network'];
    const gbp = entry?.gbp;
    if (typeof gbp !== 'number' || !Number.isFinite(gbp) || gbp <= 0)
      throw new Error('The price feed has no QNT price in pounds');
    const at = entry?.last_updated_at ? new Date(entry.last_updated_at * 1000) : new Date(this.now());
    if (this.now() - at.getTime() > MAX_AGE_MS)
      throw new Error(`The price feed's QNT price is from ${at.toISOString()}`);
    // Eight decimals are below a millionth of a penny per QNT: the decimal string is exact from here on.
    const quote = { gbpPerQnt: trimDecimal(gbp.toFixed(8)), at, source: 'feed' };
    this.last = { quote, readAt: this.now() };
    return quote;
  }
}

const trimDecimal = (text: string) => text.replace(/\.?0+$/, '');
