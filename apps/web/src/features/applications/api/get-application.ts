import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZApplication, type TApplication } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** GET /application/{id}. */
export function getApplication(id: string): Promise<TApplication> {
  return api.applicationManager.get(`/application/${id}`, { schema: ZApplication });
}

export const getApplicationQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...applicationsKey, 'one', id], queryFn: () => getApplication(id) });

export function useApplication(id: string, options: { initialData?: TApplication } = {}) {
  return useQuery({ ...getApplicationQueryOptions(id), initialData: options.initialData });
}
