import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TManagementUser } from '@connect/shared';
import { getManagementUsers, managementUsersKey } from './get-management-users.ts';

/** How many users the email field suggests. */
const SUGGESTIONS = 10;

/**
 * The users whose email (or name, or organisation) matches what the staff member typed: the users
 * list (GET /management/users) searched by the term, ACTIVE users, newest change first. The
 * application dialog's email field suggests them.
 */
export const findUsersQueryOptions = (term: string) =>
  queryOptions({
    queryKey: [...managementUsersKey, 'suggestions', term],
    queryFn: async ({ signal }): Promise<TManagementUser[]> =>
      (
        await getManagementUsers(
          { status: 'ACTIVE', page: 0, size: SUGGESTIONS, sort: 'email:asc', searchTerm: term },
          signal,
        )
      ).userList,
    staleTime: 30_000,
  });

/** Asked once the term has a character (the server matches 1–2 characters at the start of an email). */
export function useFindUsers(term: string) {
  return useQuery({ ...findUsersQueryOptions(term), enabled: term.length > 0 });
}
