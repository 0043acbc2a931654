import type { Call } from './calls.ts';

const CUSTOMER = '/api/campaign/reward';
const STAFF = '/api/campaign/management/reward';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/**
 * Claims (issue 34 §3): a customer with reward QNT claims twice (and is refused beyond the
 * balance and for a bad address); the administrator lists the claims, reads one, pays it from the
 * treasury (a second click: 409), rejects the other, and reads the treasury.
 */
export function claimCalls(): Call[] {
  const claimant = (url: string, s: Record<string, string>, body?: unknown) => ({
    url,
    headers: { authorization: s.claimant! },
    ...(body ? { body } : {}),
  });
  const admin = (url: string, body?: unknown) => ({ url, as: 'admin' as const, ...(body ? { body } : {}) });
  return [
    {
      operation: `POST ${CUSTOMER}`,
      send: async (s, h) => {
        s.claimant = await h.rewardClaimant();
        return claimant(CUSTOMER, s, { address: ADDRESS, qnt: '2' });
      },
      status: 201,
      keep: (answer: { id: string }, s) => {
        s.claim = answer.id;
      },
    },
    {
      operation: `POST ${CUSTOMER}`,
      send: (s) => claimant(CUSTOMER, s, { address: ADDRESS.toLowerCase(), qnt: '1.5' }),
      status: 201,
      keep: (answer: { id: string }, s) => {
        s.claimToReject = answer.id;
      },
    },
    {
      operation: `POST ${CUSTOMER}`,
      send: (s) => claimant(CUSTOMER, s, { address: ADDRESS, qnt: '1000' }),
      status: 409,
    },
    {
      operation: `POST ${CUSTOMER}`,
      send: (s) => claimant(CUSTOMER, s, { address: '0x1234', qnt: '1' }),
      status: 400,
    },
    {
      operation: `GET ${CUSTOMER}/transactions`,
      send: (s) => claimant(`${CUSTOMER}/transactions?page=0&size=5`, s),
      status: 200,
    },
    {
      operation: `GET ${STAFF}/transactions`,
      send: () => admin(`${STAFF}/transactions?status=PENDING&status=PAYING&page=0&size=5&sort=createdAt,desc`),
      status: 200,
    },
    {
      operation: `GET ${STAFF}/transactions`,
      send: () => admin(`${STAFF}/transactions?sort=amount,asc`),
      status: 400,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: `GET ${STAFF}/claims/{id}`,
      send: (s) => admin(`${STAFF}/claims/${isKnown ? s.claim : UNKNOWN}`),
      status: isKnown ? 200 : 404,
    })),
    ...[200, 409].map((status): Call => ({
      operation: `POST ${STAFF}/claims/{id}/pay`,
      send: (s) => admin(`${STAFF}/claims/${s.claim}/pay`),
      status,
    })),
    {
      operation: `POST ${STAFF}/claims/{id}/reject`,
      send: (s) => admin(`${STAFF}/claims/${s.claimToReject}/reject`, { reason: 'Sent to an exchange address.' }),
      status: 200,
    },
    {
      operation: `GET ${STAFF}/treasury`,
      send: () => admin(`${STAFF}/treasury`),
      status: 200,
    },
  ];
}
