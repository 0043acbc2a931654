import type { ServiceModule } from '../../modules.ts';
import { integrateService } from './routes.ts';

/** The integrate service (spec §7): the networks an account uses, public and private. */
export const integrateModule: ServiceModule = {
  name: 'integrate',
  service: 'integrate',
  routes: integrateService,
  codes: [
    'NETWORK_NOT_FOUND',
    'NETWORK_REMOVAL_REQUESTED',
    'NETWORK_REMOVED',
    'NETWORK_NOT_REMOVABLE',
    'NETWORK_NOT_UNDER_REVIEW',
  ],
};
