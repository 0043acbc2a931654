/**
 * VAT rates in basis points by ISO 3166 country (20 % = 2000): the United Kingdom and the EU-27's
 * standard rates on 1 January 2026. The server's VAT_RATES setting replaces the table.
 */
export const DEFAULT_VAT_RATES_BP: Readonly<Record<string, number>> = {
  GB: 2000,
  AT: 2000,
  BE: 2100,
  BG: 2000,
  HR: 2500,
  CY: 1900,
  CZ: 2100,
  DK: 2500,
  EE: 2400,
  FI: 2550,
  FR: 2000,
  DE: 1900,
  GR: 2400,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LV: 2100,
  LT: 2100,
  LU: 1700,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SK: 2300,
  SI: 2200,
  ES: 2100,
  SE: 2500,
};
