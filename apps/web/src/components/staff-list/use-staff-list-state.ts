import {
  formatStaffSort,
  nextStaffSort,
  parseStaffSort,
  STAFF_DEFAULT_PAGE_SIZE,
  STAFF_PAGE_SIZES,
  type TStaffSort,
} from '@connect/shared';
import { useRef } from 'react';
import { useSearchParams } from 'react-router';

/*
 * Where a staff list keeps its state (issue 32 §2): in the address, so a reload or a shared link
 * shows the same rows. `?tab=pending&search=ada&sort=email:asc&page=3&size=50` plus the list's own
 * filters; a value at its default is left out. The page is one-based in the address as in the UI
 * (spec §4) and zero-based on the wire; `sort=` (empty) is "no sort", an absent `sort` the list's
 * default sort. What the address cannot say (an unknown tab, a size not offered, a negative page)
 * reads as the default.
 */

export type StaffListConfig<F extends string, T extends string, K extends string> = {
  sortFields: readonly F[];
  defaultSort: TStaffSort<F>;
  /** Tabs held in the address as they are written (lower case for users, spec §4). */
  tabs?: { values: readonly T[]; initial: T };
  /** The list's filters besides the search term, each an address parameter of that name (not tab, search, sort, page or size). */
  filters?: readonly K[];
};

/** The list request every staff list sends (packages/shared staff-list.ts), its own filters aside. */
export type StaffListWireQuery = { page: number; size: number; sort: string; searchTerm?: string };

export type StaffListState<F extends string = string, T extends string = string, K extends string = string> = {
  /** The tab shown; null for a list without tabs. */
  tab: T | null;
  /** The search term, trimmed; undefined when there is none. */
  search: string | undefined;
  sort: TStaffSort<F>;
  /** Zero-based. */
  page: number;
  size: number;
  filters: Partial<Record<K, string>>;
  /** Whether a search or filter narrows the list (the empty state then offers to clear them). */
  isFiltered: boolean;
  wire: StaffListWireQuery;
  setTab: (tab: T) => void;
  setSearch: (term: string) => void;
  /** A click on a sortable column: the generic cycle none → ascending → descending → none. */
  toggleSort: (field: string) => void;
  setPage: (page: number) => void;
  setSize: (size: number) => void;
  setFilter: (name: K, value: string | undefined) => void;
  clearFilters: () => void;
};

function pageOf(value: string | null): number {
  const page = Number.parseInt(value ?? '', 10);
  // One-based in the address; anything below 1 (or not a number) is the first page.
  return Number.isFinite(page) && page > 1 ? page - 1 : 0;
}

function sizeOf(value: string | null): number {
  const size = Number.parseInt(value ?? '', 10);
  return (STAFF_PAGE_SIZES as readonly number[]).includes(size) ? size : STAFF_DEFAULT_PAGE_SIZE;
}

/** The tab of the address, else the initial one. */
function tabOf<T extends string>(value: string | null, tabs: { values: readonly T[]; initial: T }): T {
  return (tabs.values as readonly string[]).includes(value ?? '') ? (value as T) : tabs.initial;
}

/** No `sort` is the default; `sort=` is none (null); one the list does not know is the default too. */
function sortOf<F extends string>(
  params: URLSearchParams,
  config: { sortFields: readonly F[]; defaultSort: TStaffSort<F> },
) {
  const value = params.get('sort');
  if (value === null) return config.defaultSort;
  const parsed = parseStaffSort(value, config.sortFields);
  return parsed === undefined ? config.defaultSort : parsed;
}

const sameSort = (a: TStaffSort, b: TStaffSort) => formatStaffSort(a) === formatStaffSort(b);

export function useStaffListState<F extends string, T extends string = never, K extends string = never>(
  config: StaffListConfig<F, T, K>,
): StaffListState<F, T, K> {
  const [params, setParams] = useSearchParams();
  // Several changes can come in one event (the grid reports a new sort and then the first page):
  // each builds on the one before, not on the address of the last render, or it would undo it.
  // A render before the router has caught up (a refetch's) still shows the old address: only a
  // new address replaces what the last change wrote, or a stale one would bring back a cleared term.
  const latest = useRef(params);
  const seen = useRef(params.toString());
  if (params.toString() !== seen.current) {
    seen.current = params.toString();
    latest.current = params;
  }

  const update = (changes: Record<string, string | undefined>, { keepPage = false } = {}) => {
    const next = new URLSearchParams(latest.current);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(name);
      else next.set(name, value);
    }
    // Another tab, term, order, size or filter starts from the first page.
    if (!keepPage) next.delete('page');
    latest.current = next;
    setParams(next, { replace: true });
  };

  const tabs = config.tabs;
  const tab = tabs ? tabOf(params.get('tab'), tabs) : null;
  const search = params.get('search')?.trim() || undefined;
  const sort = sortOf(params, config);
  const page = pageOf(params.get('page'));
  const size = sizeOf(params.get('size'));
  const filterNames = config.filters ?? [];
  const filters: Partial<Record<K, string>> = {};
  for (const name of filterNames) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }

  const writeSort = (next: TStaffSort<F>) =>
    update({ sort: sameSort(next, config.defaultSort) ? undefined : formatStaffSort(next) });

  return {
    tab,
    search,
    sort,
    page,
    size,
    filters,
    isFiltered: search !== undefined || Object.keys(filters).length > 0,
    wire: { page, size, sort: formatStaffSort(sort), ...(search ? { searchTerm: search } : {}) },
    // The search stays: the same person may be looked for on another tab.
    setTab: (next) => update({ tab: tabs && next !== tabs.initial ? next : undefined }),
    setSearch: (term) => update({ search: term.trim() || undefined }),
    toggleSort: (field) => {
      if (!(config.sortFields as readonly string[]).includes(field)) return;
      // Built on the latest address, so two clicks before a render still cycle twice.
      writeSort(nextStaffSort(sortOf(latest.current, config), field as F));
    },
    setPage: (next) => update({ page: next > 0 ? String(next + 1) : undefined }, { keepPage: true }),
    setSize: (next) => update({ size: next === STAFF_DEFAULT_PAGE_SIZE ? undefined : String(next) }),
    setFilter: (name, value) => update({ [name]: value?.trim() || undefined }),
    clearFilters: () =>
      update(Object.fromEntries(['search', ...filterNames].map((name) => [name, undefined] as const))),
  };
}
