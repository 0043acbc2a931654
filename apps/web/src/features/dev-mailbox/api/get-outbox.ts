import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError } from '../../../lib/api-client.ts';

const ZOutboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.string(),
  subject: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  createdAt: z.string(),
});
export type TOutboxMessage = z.infer<typeof ZOutboxMessage>;
const ZOutbox = z.object({ messages: z.array(ZOutboxMessage) });

/** How often an open mailbox looks for new mail. */
export const OUTBOX_REFRESH_MS = 5000;

/**
 * GET /api/dev/outbox?to=: the messages the embedded mailer wrote for an address (not served in
 * production). It is a system route, not one of the services, so it is fetched directly and
 * needs no session: the mailbox is used before signing up. The server lists oldest first;
 * the mailbox shows the newest first.
 */
export async function getOutbox(to: string, signal?: AbortSignal): Promise<TOutboxMessage[]> {
  const response = await fetch(`/api/dev/outbox?${new URLSearchParams({ to })}`, {
    headers: { accept: 'application/json' },
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => undefined));
  const { messages } = ZOutbox.parse(await response.json());
  return [...messages].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

export const getOutboxQueryOptions = (to: string) =>
  queryOptions({
    queryKey: ['dev', 'outbox', to],
    queryFn: ({ signal }) => getOutbox(to, signal),
    refetchInterval: OUTBOX_REFRESH_MS,
    staleTime: 0,
  });

export function useOutbox(to: string) {
  return useQuery({ ...getOutboxQueryOptions(to), enabled: to !== '' });
}
