import type { PriceQuote, PriceSource } from './port.ts';

/** The embedded default: the price in configuration (`QNT_GBP_PRICE`), read at the time asked. */
export class FixedPrices implements PriceSource {
  constructor(private readonly gbpPerQnt: string) {}

  qntInGbp(): Promise<PriceQuote> {
    return Promise.resolve({ gbpPerQnt: this.gbpPerQnt, at: new Date(), source: 'fixed' });
  }
}
