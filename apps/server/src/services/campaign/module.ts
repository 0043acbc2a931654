import type { ServiceModule } from '../../modules.ts';
import { campaignService } from './routes.ts';

/** The campaign service (spec §7): coming soon, its routes answer so. */
export const campaignModule: ServiceModule = { name: 'campaign', service: 'campaign', routes: campaignService };
