import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import type { TStaffListPaging } from '@connect/shared';
import { useEffect, useRef } from 'react';

/**
 * One page of a staff list. The server seeks by key (packages/shared staff-list.ts): each answer
 * carries a `cursor` naming the page's edge rows, and the next request sends back the cursor of
 * the page on screen, so the next, previous, same and last page are index seeks instead of an
 * OFFSET. The cursor is kept here, in memory, not in the query key (every answer has a new one, so
 * a keyed cursor would ask again for ever) nor in the address (it says nothing a reload could
 * use). A cursor of another tab, term, sort or size is ignored by the server, so the last shown
 * one is always safe to send. Another page keeps the rows on screen until the next arrive.
 */
export function useStaffListQuery<TAnswer extends TStaffListPaging>({
  queryKey,
  fetchPage,
}: {
  /** The list's key and its wire query (tab, term, sort, page, size, filters), never the cursor. */
  queryKey: QueryKey;
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<TAnswer>;
}) {
  const shownCursor = useRef<string | null>(null);
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetchPage(shownCursor.current ?? undefined, signal),
    placeholderData: keepPreviousData,
  });
  // The cursor of the page the list shows: a failed or pending request leaves it as it was.
  const cursor = query.data?.cursor;
  useEffect(() => {
    if (cursor !== undefined) shownCursor.current = cursor;
  }, [cursor]);
  return query;
}
