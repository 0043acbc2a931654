import { z } from 'zod';
import { LIMITS } from './constants.ts';
import { ZQueryInt, ZQueryPage } from './numbers.ts';

/*
 * The staff console's lists (issue 32 §2): users here; accounts, applications, campaigns, tasks and
 * claims in the next issues. One query shape, one answer shape, one sort cycle.
 *
 * Paging is by page number as the spec says (one-based in the UI, zero-based on the wire, a negative
 * page read as 0), but the server seeks by key: each answer carries a `cursor` naming the page's
 * first and last rows, and the client sends it back with its next request. The next, previous and
 * same page and the last page are then index seeks; any other page is an OFFSET from the nearest
 * page the cursor knows (cost grows with the distance). A request without a cursor is a jump from
 * the first page.
 */

export const STAFF_PAGE_SIZES = LIMITS.pageSizes;
/** Spec §9: users, accounts, campaigns and claims open with 5 rows. */
export const STAFF_DEFAULT_PAGE_SIZE = 5;
/** A search's total is counted exactly up to this many rows, then shown as "10,000+". */
export const STAFF_COUNT_CAP = 10_000;

export type TStaffSort<F extends string = string> = { field: F; direction: 'asc' | 'desc' } | null;

/** The generic sort cycle of spec §4: none → ascending → descending → none; another column starts at ascending. */
export function nextStaffSort<F extends string>(current: TStaffSort<F>, field: F): TStaffSort<F> {
  if (!current || current.field !== field) return { field, direction: 'asc' };
  return current.direction === 'asc' ? { field, direction: 'desc' } : null;
}

/** The wire form `field:asc` / `field:desc`, or '' for none. */
export function formatStaffSort(sort: TStaffSort): string {
  return sort ? `${sort.field}:${sort.direction}` : '';
}

/** Reads `field:direction`; '' is none; anything else (an unknown field) is undefined. */
export function parseStaffSort<F extends string>(
  value: string | undefined | null,
  fields: readonly F[],
): TStaffSort<F> | undefined {
  if (!value) return null;
  const [field, direction, ...rest] = value.split(':');
  if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) return undefined;
  if (!(fields as readonly string[]).includes(field ?? '')) return undefined;
  return { field: field as F, direction };
}

/** A search term as the lists take it: trimmed; an empty term is no term (spec §5). */
export const ZStaffSearchTerm = z
  .string()
  .max(100, { message: 'The search term must be 100 characters or fewer.' })
  .optional()
  .transform((term) => term?.trim() || undefined);

/** The query every staff list takes; each list adds its own filters and names its sortable fields. */
export function staffListQuery<F extends string>(sortFields: readonly F[]) {
  return z.object({
    page: ZQueryPage.optional().transform((page) => page ?? 0),
    size: ZQueryInt()
      .refine((size) => (STAFF_PAGE_SIZES as readonly number[]).includes(size), {
        message: `The page size must be one of ${STAFF_PAGE_SIZES.join(', ')}.`,
      })
      .default(STAFF_DEFAULT_PAGE_SIZE),
    sort: z
      .string()
      .max(60)
      .optional()
      .transform((sort, ctx) => {
        const parsed = parseStaffSort(sort, sortFields);
        if (parsed === undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `The sort must be field:asc or field:desc, the field one of ${sortFields.join(', ')}.`,
          });
          return z.NEVER;
        }
        return parsed;
      }),
    searchTerm: ZStaffSearchTerm,
    /** The `cursor` of the page the client shows, from the previous answer. */
    cursor: z
      .string()
      .max(1000)
      .regex(/^[A-Za-z0-9_-]+$/, 'The cursor is not valid.')
      .optional(),
  });
}

/**
 * What every list answer carries besides its rows. `totalItems` is exact unless `totalCapped`:
 * then more than STAFF_COUNT_CAP rows match, `totalItems` is the cap and `totalPages` the pages
 * of the cap (the UI shows "10,000+" and no last page).
 */
export const ZStaffListPaging = z.object({
  totalItems: z.number().int(),
  totalPages: z.number().int(),
  totalCapped: z.boolean(),
  /** The page answered (zero-based) and its size. */
  page: z.number().int(),
  size: z.number().int(),
  hasNextPage: z.boolean(),
  /** Send it back with the next request; null on an empty page. */
  cursor: z.string().nullable(),
});
export type TStaffListPaging = z.infer<typeof ZStaffListPaging>;
