import type { TFooter } from '@connect/shared';

/**
 * The query suffix behind a footer link's `addSuffix` flag. Spec §2.2 names the flag ("an
 * optional suffix query flag") but not the suffix. We read it as a referral tag: a link to the
 * company's sites or documentation says where the visit came from, so the marketing and docs
 * analytics can tell portal users apart. The value is `source=<productSlug>-portal`, appended to
 * any query the link already has and placed before its fragment.
 */
export function withSourceSuffix(url: string, productSlug: string): string {
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}source=${encodeURIComponent(`${productSlug}-portal`)}${hash}`;
}

/** The address a footer link opens: with the source suffix when the link asks for it. */
export function footerHref(link: { url: string; addSuffix: boolean }, productSlug: string): string {
  return link.addSuffix ? withSourceSuffix(link.url, productSlug) : link.url;
}

/** A link that leaves the portal opens in a new tab; a portal path stays in the SPA. */
export function isExternalUrl(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith('//');
}

/**
 * Spec §8: a footer with no link sections counts as empty ("Footer response is empty!"), and the
 * built-in default is shown instead. Sections without links do not count.
 */
export function hasFooterContent(footer: TFooter | undefined): footer is TFooter {
  return Boolean(footer?.sections.some((section) => section.links.length > 0));
}
