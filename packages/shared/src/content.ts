import { z } from 'zod';
import { ZQueryInt, ZQueryPage } from './numbers.ts';

export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
  });
}

/** Paging of spec §4: the UI is one-based, the server zero-based; a negative page is clamped to 0. */
export const ZPageQuery = z.object({
  page: ZQueryPage.optional().transform((page) => page ?? 0),
  size: ZQueryInt({ min: 1, max: 100 }).default(10),
});

export const ZContentUpdate = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    linkUrl: z.string().nullable(),
    publishedAt: z.string(),
  })
  .meta({ id: 'ContentUpdate' });
export type TContentUpdate = z.infer<typeof ZContentUpdate>;
/** `GET /api/connect/content/updates`: the dashboard's news, newest first. */
export const ZContentUpdatesPage = ZPage(ZContentUpdate).meta({ id: 'ContentUpdatesPage' });
export type TContentUpdatesPage = z.infer<typeof ZContentUpdatesPage>;

export const ZContentFeature = z
  .object({
    /** The product catalogue's name of the product (`GET /jsons/products.json`). */
    id: z.string(),
    title: z.string(),
    description: z.string(),
    icon: z.string().nullable(),
    linkUrl: z.string().nullable(),
    order: z.number(),
  })
  .meta({ id: 'ContentFeature' });
export type TContentFeature = z.infer<typeof ZContentFeature>;
/** `GET /api/connect/content/features`: the dashboard's features list, by order, fed by the product catalogue. */
export const ZContentFeaturesResponse = z
  .object({ features: z.array(ZContentFeature) })
  .meta({ id: 'ContentFeaturesResponse' });
export type TContentFeaturesResponse = z.infer<typeof ZContentFeaturesResponse>;

export const ZFooterLink = z
  .object({
    title: z.string(),
    url: z.string(),
    addSuffix: z.boolean(),
    feature: z.string().nullable(),
  })
  .meta({ id: 'FooterLink' });
export const ZFooter = z
  .object({
    sections: z.array(z.object({ title: z.string(), links: z.array(ZFooterLink) })),
    secondaryLinks: z.array(ZFooterLink),
  })
  .meta({ id: 'Footer' });
export type TFooter = z.infer<typeof ZFooter>;

export const ZFeatureEntry = z
  .object({
    t: z.number().int().nullable(),
    a: z.number().int(),
  })
  .meta({ id: 'FeatureEntry' });
export const ZAvailableFeatures = z
  .object({
    availableFeatures: z.record(z.string(), ZFeatureEntry),
  })
  .meta({ id: 'AvailableFeatures' });
export type TAvailableFeatures = z.infer<typeof ZAvailableFeatures>['availableFeatures'];

/** Spec §5: available only if present and either no total or total > used. */
export function isFeatureAvailable(features: TAvailableFeatures, feature: string): boolean {
  const entry = features[feature];
  if (!entry) return false;
  return entry.t === null || entry.t > entry.a;
}
