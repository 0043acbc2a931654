import type { TestChain } from './chains.ts';
import { betaCalls } from './openapi-script/beta.ts';
import { billingCalls } from './openapi-script/billing.ts';
import type { Call } from './openapi-script/calls.ts';
import { catalogueCalls } from './openapi-script/catalogue.ts';
import { claimCalls } from './openapi-script/claims.ts';
import { identityCalls } from './openapi-script/identity.ts';
import { integrateCalls } from './openapi-script/integrate.ts';
import { rewardCalls } from './openapi-script/rewards.ts';
import { staffCalls } from './openapi-script/staff.ts';
import { tokenCalls } from './openapi-script/tokens.ts';

/**
 * The calls openapi-recordings.ts makes: every operation of the OpenAPI document at least once,
 * in an order where later calls use what earlier ones created, each with the status it must answer.
 * The calls are written by area in openapi-script/ (calls.ts holds their shape and common makers).
 */

export {
  WEBHOOK_TOKEN,
  type Call,
  type Caller,
  type Helpers,
  type Request,
  type State,
} from './openapi-script/calls.ts';

/**
 * The script: every call in order (later calls use what earlier ones created), each with the
 * status it must answer. Refusals other than the automatic 401s are listed too (404, 403, 400).
 */
export function script(chain: TestChain): Call[] {
  return [
    ...identityCalls(),
    ...catalogueCalls(),
    ...integrateCalls(chain),
    ...tokenCalls(),
    ...staffCalls(),
    ...betaCalls(),
    ...rewardCalls(),
    ...claimCalls(),
    ...billingCalls(),
  ];
}
