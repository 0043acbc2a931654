import type { ServiceModule } from '../../modules.ts';
import { bridgeService } from './routes.ts';

/** The bridge service (spec §7): coming soon, its routes answer so. */
export const bridgeModule: ServiceModule = { name: 'bridge', service: 'bridge', routes: bridgeService };
