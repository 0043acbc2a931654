import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import {
  BUNDLE_SEEDS,
  PLAN_SEED_CHANGES,
  PLAN_SEED_CHANGES_SETTING,
  PLAN_SEEDS,
  PLAN_SEEDS_SETTING,
  seedPlans,
} from './seed-plans.ts';
import { appSettings, contentUpdates, footerLinks, footerSections, roles, termsVersions } from './schema/index.ts';

export const LATEST_TERMS = {
  version: '2026-10-01',
  title: 'Terms and Conditions',
  url: 'https://quant.network/terms-of-use/',
} as const;

const ROLE_ROWS = [
  { name: 'QUANT_ADMIN', description: 'Administrator of the portal' },
  { name: 'QUANT_SALES', description: 'Sales staff: account management' },
  { name: 'INDIVIDUAL', description: 'Individual developer' },
  { name: 'SME', description: 'Small or medium-sized enterprise' },
  { name: 'INSTITUTION', description: 'Institution' },
] as const;

const UPDATES = [
  {
    title: 'Private EVM networks',
    description: 'Connect your own EVM network: we check its RPC endpoint, chain id and fee model before review.',
    linkUrl: '/my-networks',
    daysAgo: 2,
  },
  {
    title: 'QRC721 tokens in three tiers',
    description:
      'Deploy non-fungible tokens as base, flex or vari contracts, from your wallet or through the platform.',
    linkUrl: '/quant-flows/token-flow',
    daysAgo: 9,
  },
  {
    title: 'Authenticator-app sign-in',
    description: 'Protect your account with a one-time code from an authenticator app. Set it up from your profile.',
    linkUrl: '/my-account',
    daysAgo: 16,
  },
  {
    title: 'Monthly reward campaigns',
    description: 'Customers on a paid plan can opt in to campaigns, complete tasks and claim QNT.',
    linkUrl: '/rewards',
    daysAgo: 30,
  },
] as const;

/** The default footer of spec §2.2: five link groups and three bottom links. */
export const DEFAULT_FOOTER = {
  sections: [
    {
      title: 'Who we serve',
      links: [
        {
          title: 'Financial institutions',
          url: 'https://quant.network/financial-institutions/',
        },
        { title: 'Enterprises', url: 'https://quant.network/enterprises/' },
        { title: 'Developers', url: 'https://quant.network/developers/' },
      ],
    },
    {
      title: 'What we do',
      links: [
        { title: 'Overledger', url: 'https://quant.network/overledger/' },
        { title: 'Tokenisation', url: 'https://quant.network/tokenisation/' },
      ],
    },
    {
      title: 'How we do it',
      links: [
        {
          title: 'Interoperability',
          url: 'https://quant.network/interoperability/',
        },
        {
          title: 'Documentation',
          url: 'https://docs.quant.network/',
          addSuffix: true,
        },
      ],
    },
    {
      title: 'Why it matters',
      links: [{ title: 'Use cases', url: 'https://quant.network/use-cases/' }],
    },
    {
      title: 'About us',
      links: [
        { title: 'Company', url: 'https://quant.network/about-us/' },
        { title: 'Careers', url: 'https://quant.network/careers/' },
        { title: 'Contact', url: 'https://quant.network/contact/' },
      ],
    },
  ],
  secondaryLinks: [
    { title: 'Privacy policy', url: 'https://quant.network/privacy-policy/' },
    { title: 'Terms of use', url: 'https://quant.network/terms-of-use/' },
    { title: 'Trademarks', url: 'https://quant.network/trademarks/' },
  ],
} as const;

/** Where the database records the fingerprint of the reference data it was last seeded with. */
const SEEDED_SETTING = 'reference-data-seeded';
/**
 * A fingerprint of everything seedReferenceData writes: a change to any seed is a new one. The
 * plan seed's record (PLAN_SEEDS_SETTING, issue 33 §3) is part of it, so the first start of the
 * version that keeps the record writes it before staff can delete a seeded tier.
 */
export const SEEDS_FINGERPRINT = createHash('sha256')
  .update(
    JSON.stringify(
      [
        ROLE_ROWS,
        LATEST_TERMS,
        UPDATES,
        DEFAULT_FOOTER,
        PLAN_SEEDS,
        BUNDLE_SEEDS,
        PLAN_SEEDS_SETTING,
        PLAN_SEED_CHANGES,
        PLAN_SEED_CHANGES_SETTING,
      ],
      (_key, value) => (typeof value === 'bigint' ? value.toString() : value),
    ),
  )
  .digest('hex');

/**
 * Seeds reference data and first-start content. Idempotent: content tables are only filled
 * while empty, so staff edits are never overwritten by a restart. A database already seeded with
 * these seeds (its recorded fingerprint) is left as it is: one query instead of twelve at every
 * start, ~0.1 s of a restart (issue 30); a changed seed runs it again.
 */
export async function seedReferenceData(db: Database, now = new Date()): Promise<void> {
  const [seeded] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, SEEDED_SETTING));
  if (seeded?.value === SEEDS_FINGERPRINT) return;
  await db
    .insert(roles)
    .values([...ROLE_ROWS])
    .onConflictDoNothing();
  await db
    .insert(termsVersions)
    .values({
      ...LATEST_TERMS,
      publishedAt: new Date(`${LATEST_TERMS.version}T00:00:00Z`),
    })
    .onConflictDoNothing();
  await seedPlans(db);

  const [updates] = await db.select({ n: sql<number>`count(*)::int` }).from(contentUpdates);
  if (!updates?.n) {
    await db.insert(contentUpdates).values(
      UPDATES.map(({ daysAgo, ...update }) => ({
        ...update,
        publishedAt: new Date(now.getTime() - daysAgo * 86_400_000),
      })),
    );
  }

  // The dashboard's features list comes from the product catalogue
  // (apps/server/src/services/connect/catalogue/); migration 0024 dropped content_features.

  const [sections] = await db.select({ n: sql<number>`count(*)::int` }).from(footerSections);
  if (!sections?.n) {
    await db.transaction(async (tx) => {
      for (const [sortOrder, section] of DEFAULT_FOOTER.sections.entries()) {
        const [row] = await tx
          .insert(footerSections)
          .values({ title: section.title, sortOrder })
          .returning({ id: footerSections.id });
        await tx.insert(footerLinks).values(
          section.links.map((link, linkOrder) => ({
            sectionId: row!.id,
            title: link.title,
            url: link.url,
            addSuffix: 'addSuffix' in link ? link.addSuffix : false,
            sortOrder: linkOrder,
          })),
        );
      }
      await tx.insert(footerLinks).values(
        DEFAULT_FOOTER.secondaryLinks.map((link, sortOrder) => ({
          ...link,
          sortOrder,
        })),
      );
    });
  }
  await db
    .insert(appSettings)
    .values({ key: SEEDED_SETTING, value: SEEDS_FINGERPRINT })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: SEEDS_FINGERPRINT, updatedAt: new Date() } });
}
