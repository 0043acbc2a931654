import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZProductCatalogue, ZProductPage, type TCatalogueProduct, type TProductPage } from '@connect/shared';
import { fetchCatalogue } from '../../../lib/product-catalogue.ts';

/** The catalogue changes only with a release: read once per visit of the area, revalidated with its ETag. */
const STALE_MS = 5 * 60_000;

/** GET /jsons/products.json: the token use cases (the tiles of Token Flow), in the catalogue's order. */
export const tokenUseCasesQueryOptions = () =>
  queryOptions({
    queryKey: ['catalogue', 'products'],
    queryFn: ({ signal }) => fetchCatalogue('products', ZProductCatalogue, { signal }),
    select: (catalogue): TCatalogueProduct[] =>
      catalogue.products.filter((product) => product.area === 'token-use-case'),
    staleTime: STALE_MS,
  });

export function useTokenUseCases() {
  return useQuery(tokenUseCasesQueryOptions());
}

/** GET /jsons/{name}.json: a use case's page. */
export const productPageQueryOptions = (name: string) =>
  queryOptions({
    queryKey: ['catalogue', 'page', name],
    queryFn: ({ signal }): Promise<TProductPage> => fetchCatalogue(name, ZProductPage, { signal }),
    staleTime: STALE_MS,
  });

export function useProductPage(name: string) {
  return useQuery(productPageQueryOptions(name));
}
