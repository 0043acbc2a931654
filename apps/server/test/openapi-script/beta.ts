import type { Call } from './calls.ts';

const STAFF = '/api/connect/management/beta-features';
const CUSTOMER = '/api/connect/beta/features';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * Connect Beta (issue 35 §1): the administrator adds an invitation-only beta feature and invites
 * the user's account; the user lists it, opts in and out; the administrator reads who takes
 * part, revokes the invitation and deletes the feature (so nothing stays switched on).
 */
export function betaCalls(): Call[] {
  const form = {
    name: 'Recorded beta',
    description: 'Bridges before everyone else.',
    featureKey: 'bridge',
    access: 'INVITATION',
  };
  return [
    ...[201, 409].map((status): Call => ({
      operation: `POST ${STAFF}`,
      send: () => ({ url: STAFF, as: 'admin', body: form }),
      status,
      keep: (body: { id?: string }, s) => {
        if (body.id) s.betaFeature = body.id;
      },
    })),
    {
      operation: `GET ${STAFF}`,
      send: () => ({ url: STAFF, as: 'admin' }),
      status: 200,
    },
    ...[
      { known: true, status: 200 },
      { known: false, status: 404 },
    ].map(({ known, status }): Call => ({
      operation: `PUT ${STAFF}/{id}`,
      send: (s) => ({
        url: `${STAFF}/${known ? s.betaFeature : UNKNOWN}`,
        as: 'admin',
        body: { ...form, description: 'Move tokens between two networks, before everyone else.' },
      }),
      status,
    })),
    ...[
      { known: true, status: 201 },
      { known: false, status: 404 },
    ].map(({ known, status }): Call => ({
      operation: `POST ${STAFF}/{id}/invitations`,
      send: (s) => ({
        url: `${STAFF}/${s.betaFeature}/invitations`,
        as: 'admin',
        body: { accountId: known ? s.account : UNKNOWN },
      }),
      status,
    })),
    { operation: `GET ${CUSTOMER}`, send: () => ({ url: CUSTOMER }), status: 200 },
    ...[
      { known: true, status: 200 },
      { known: false, status: 404 },
    ].map(({ known, status }): Call => ({
      operation: `PUT ${CUSTOMER}/{id}/optin`,
      send: (s) => ({ url: `${CUSTOMER}/${known ? s.betaFeature : UNKNOWN}/optin` }),
      status,
    })),
    {
      operation: `GET ${STAFF}/{id}/participants`,
      send: (s) => ({ url: `${STAFF}/${s.betaFeature}/participants`, as: 'admin' }),
      status: 200,
    },
    {
      operation: `DELETE ${CUSTOMER}/{id}/optin`,
      send: (s) => ({ url: `${CUSTOMER}/${s.betaFeature}/optin` }),
      status: 200,
    },
    {
      operation: `DELETE ${STAFF}/{id}/invitations/{accountId}`,
      send: (s) => ({ url: `${STAFF}/${s.betaFeature}/invitations/${s.account}`, as: 'admin' }),
      status: 204,
    },
    ...[204, 404].map((status): Call => ({
      operation: `DELETE ${STAFF}/{id}`,
      send: (s) => ({ url: `${STAFF}/${s.betaFeature}`, as: 'admin' }),
      status,
    })),
  ];
}
