/** The published terms of use (the same page the footer links to; seeded in packages/db). */
export const TERMS_OF_USE_URL = 'https://quant.network/terms-of-use/';
