import { expect, type APIRequestContext } from '@playwright/test';

type OutboxMessage = { kind: string; subject: string; text: string; code: string | null; createdAt: string };

/** The newest message of a kind sent to an address, from the dev mailbox API (polls briefly). */
export async function latestMail(request: APIRequestContext, to: string, kind: string): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        const { messages } = (await response.json()) as { messages: OutboxMessage[] };
        found = messages.filter((message) => message.kind === kind).at(-1);
        return Boolean(found);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

export async function mailCount(request: APIRequestContext, to: string, kind: string): Promise<number> {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  const { messages } = (await response.json()) as { messages: OutboxMessage[] };
  return messages.filter((message) => message.kind === kind).length;
}
