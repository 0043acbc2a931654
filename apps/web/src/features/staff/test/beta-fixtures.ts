import {
  ZBetaParticipant,
  ZManagedBetaFeature,
  type TBetaParticipant,
  type TManagedBetaFeature,
} from '@connect/shared';

/* Connect Beta's staff test data, parsed by the shared schemas. */

export const BETA_URL = '/api/connect/management/beta-features';

export const MANAGED_BRIDGES: TManagedBetaFeature = ZManagedBetaFeature.parse({
  id: '3c000000-0000-4000-8000-000000000001',
  name: 'Bridges',
  description: 'Move tokens between two networks with a bridge you control.',
  featureKey: 'bridge',
  access: 'OPEN',
  optIns: 1234,
  invitations: 0,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
});

export const MANAGED_PRIVATE: TManagedBetaFeature = ZManagedBetaFeature.parse({
  ...MANAGED_BRIDGES,
  id: '3c000000-0000-4000-8000-000000000002',
  name: 'Private networks',
  description: 'Connect a network of your own.',
  featureKey: 'privateNetwork',
  access: 'INVITATION',
  optIns: 1,
  invitations: 2,
});

export const OPTED_IN: TBetaParticipant = ZBetaParticipant.parse({
  accountId: '7b000000-0000-4000-8000-0000000000aa',
  organisationName: 'Analytical Engines Ltd',
  optedIn: true,
  invited: true,
  optedInAt: '2026-11-21T09:30:00.000Z',
  optedInBy: 'ada@example.com',
});

export const INVITED: TBetaParticipant = ZBetaParticipant.parse({
  accountId: '7b000000-0000-4000-8000-0000000000bb',
  organisationName: null,
  optedIn: false,
  invited: true,
  optedInAt: null,
  optedInBy: null,
});
