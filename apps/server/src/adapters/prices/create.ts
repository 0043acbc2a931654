import type { Config } from '../../config.ts';
import { FeedPrices } from './feed.ts';
import { FixedPrices } from './fixed.ts';
import type { PriceSource } from './port.ts';

export type { PriceQuote, PriceSource } from './port.ts';

/** The configured price feed (`QNT_PRICE_FEED_URL`), or the fixed table (`QNT_GBP_PRICE`). */
export function createPriceSource(config: Pick<Config, 'qnt'>): PriceSource {
  return config.qnt.priceFeedUrl ? new FeedPrices(config.qnt.priceFeedUrl) : new FixedPrices(config.qnt.gbpPrice);
}
