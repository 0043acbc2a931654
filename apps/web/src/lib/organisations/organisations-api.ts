import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  ORGANISATION_SEARCH,
  ZOrganisationSearchResponse,
  ZOrganisationStaticData,
  type TOrganisationStaticData,
} from '@connect/shared';
import { api } from '../api.ts';

/** GET /static-data/organisations: industries, company sizes and how they heard about us. */
export function getOrganisationStaticData(): Promise<TOrganisationStaticData> {
  return api.connect.get('/static-data/organisations', { schema: ZOrganisationStaticData });
}

/** The lists change only with a release: loaded once a session (the server tags them for the browser too). */
export const organisationStaticDataQueryOptions = () =>
  queryOptions({
    queryKey: ['connect', 'static-data', 'organisations'],
    queryFn: getOrganisationStaticData,
    staleTime: Infinity,
  });

export function useOrganisationStaticData() {
  return useQuery(organisationStaticDataQueryOptions());
}

/** GET /organisations?search=: the names of organisations already registered that contain the term. */
export async function searchOrganisations(term: string, signal?: AbortSignal): Promise<string[]> {
  const response = await api.connect.get('/organisations', {
    query: { search: term },
    schema: ZOrganisationSearchResponse,
    ...(signal ? { signal } : {}),
  });
  return response.organisations.map((organisation) => organisation.name);
}

/**
 * Asked once the (debounced, trimmed) term has the server's minimum length; while the next term
 * loads, the names of the last one stay listed.
 */
export function useOrganisationSearch(term: string) {
  return useQuery({
    queryKey: ['connect', 'organisations', 'search', term.toLowerCase()],
    queryFn: ({ signal }) => searchOrganisations(term, signal),
    enabled: term.length >= ORGANISATION_SEARCH.minLength,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
