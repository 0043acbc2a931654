import type { TFooter } from '@connect/shared';

type DefaultLink = { key: string; url: string; addSuffix?: boolean };

/**
 * The built-in footer of spec §2.2/§8, used when the footer request fails or returns no sections.
 * It mirrors the seeded footer (packages/db/src/seed.ts DEFAULT_FOOTER, which the web bundle may
 * not import): same groups, links and addresses. Titles are locale keys under `footer.default`
 * in layout.json, so the text lives with the rest of the frame's text.
 */
const SECTIONS: { key: string; links: DefaultLink[] }[] = [
  {
    key: 'whoWeServe',
    links: [
      { key: 'financialInstitutions', url: 'https://quant.network/financial-institutions/' },
      { key: 'enterprises', url: 'https://quant.network/enterprises/' },
      { key: 'developers', url: 'https://quant.network/developers/' },
    ],
  },
  {
    key: 'whatWeDo',
    links: [
      { key: 'overledger', url: 'https://quant.network/overledger/' },
      { key: 'tokenisation', url: 'https://quant.network/tokenisation/' },
    ],
  },
  {
    key: 'howWeDoIt',
    links: [
      { key: 'interoperability', url: 'https://quant.network/interoperability/' },
      { key: 'documentation', url: 'https://docs.quant.network/', addSuffix: true },
    ],
  },
  {
    key: 'whyItMatters',
    links: [{ key: 'useCases', url: 'https://quant.network/use-cases/' }],
  },
  {
    key: 'aboutUs',
    links: [
      { key: 'company', url: 'https://quant.network/about-us/' },
      { key: 'careers', url: 'https://quant.network/careers/' },
      { key: 'contact', url: 'https://quant.network/contact/' },
    ],
  },
];

const SECONDARY_LINKS: DefaultLink[] = [
  { key: 'privacyPolicy', url: 'https://quant.network/privacy-policy/' },
  { key: 'termsOfUse', url: 'https://quant.network/terms-of-use/' },
  { key: 'trademarks', url: 'https://quant.network/trademarks/' },
];

/** The social networks of the footer (spec §2.2: two networks). */
export const SOCIAL_LINKS = [
  { network: 'linkedin', url: 'https://www.linkedin.com/company/quant-network/' },
  { network: 'x', url: 'https://x.com/quant_network' },
] as const;

/** The default footer in the server's shape, its titles translated with `t` (layout namespace). */
export function defaultFooter(t: (key: string) => string): TFooter {
  const toLink = (link: DefaultLink) => ({
    title: t(`footer.default.links.${link.key}`),
    url: link.url,
    addSuffix: link.addSuffix ?? false,
    feature: null,
  });
  return {
    sections: SECTIONS.map((section) => ({
      title: t(`footer.default.sections.${section.key}`),
      links: section.links.map(toLink),
    })),
    secondaryLinks: SECONDARY_LINKS.map(toLink),
  };
}
