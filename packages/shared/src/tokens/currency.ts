/** Currency codes (ISO 4217, active codes incl. funds and precious metals): token names and units must not carry one (spec §5). */
export const CURRENCY_CODES: readonly string[] = (
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
  'GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW ' +
  'KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN ' +
  'NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL ' +
  'SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES ' +
  'VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XUA YER ZAR ZMW ZWG ZWL'
).split(' ');
const CURRENCY_SET = new Set(CURRENCY_CODES);

function firstCodeIn(text: string): string | null {
  for (let i = 0; i + 3 <= text.length; i++) {
    const candidate = text.slice(i, i + 3);
    if (CURRENCY_SET.has(candidate)) return candidate;
  }
  return null;
}

/**
 * The currency code a token name contains, or null (spec §5). A name is prose, so only letters
 * written in capitals count: each run of three or more capital letters ("USD", "MyGBPCoin" →
 * "GBP", "USDT") is searched for a code, while ordinary words such as "All", "Top" or "Cup"
 * (also codes: ALL, TOP, CUP) pass. Decided in docs/decisions/tokens-and-chains.md ("Tokens").
 */
export function currencyCodeInName(name: string): string | null {
  for (const run of name.match(/[A-Z]{3,}/g) ?? []) {
    const code = firstCodeIn(run);
    if (code) return code;
  }
  return null;
}

/** The currency code a token unit (symbol) contains anywhere, in any letter case, or null (spec §5). */
export function currencyCodeInUnit(unit: string): string | null {
  return firstCodeIn(unit.toUpperCase());
}
