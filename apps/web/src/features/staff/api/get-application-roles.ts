import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZApplicationRolesResponse, type TApplicationRolesResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { managementApplicationsKey } from './get-management-applications.ts';

/** GET /management/application-roles/ (spec §7): the role names an application may have. */
export function getApplicationRoles(signal?: AbortSignal): Promise<TApplicationRolesResponse> {
  return api.applicationManager.get('/management/application-roles/', {
    schema: ZApplicationRolesResponse,
    ...(signal ? { signal } : {}),
  });
}

export const getApplicationRolesQueryOptions = () =>
  queryOptions({
    queryKey: [...managementApplicationsKey, 'roles'],
    queryFn: ({ signal }) => getApplicationRoles(signal),
    // The roles are a fixed list of the release: asked once a session.
    staleTime: Infinity,
  });

export function useApplicationRoles() {
  return useQuery(getApplicationRolesQueryOptions());
}
