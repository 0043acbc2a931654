/**
 * Prices (ARCHITECTURE.md: "Prices (USD/GBP/QNT): fixed table in config | a price feed adapter").
 * A price is a positive decimal string, so what an order was quoted at can be stored beside it
 * and the conversion repeated exactly from the order's own columns.
 */
export type PriceQuote = {
  /** Pounds per QNT, e.g. '80' or '81.2345'. */
  gbpPerQnt: string;
  /** When the price was read (the feed's time, or now for the fixed table). */
  at: Date;
  /** 'fixed' (the configured table) or the feed's name. */
  source: string;
};

export interface PriceSource {
  /** Pounds per QNT now; throws when no price can be had (the caller refuses the QNT order). */
  qntInGbp(): Promise<PriceQuote>;
}
