import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';

/** The signed-in user; the gate has loaded it before any page of this area renders. */
export function useCurrentUser() {
  const userUuid = session.userUuid() ?? '';
  return useQuery({ ...currentUserQuery(userUuid), enabled: userUuid !== '' });
}
