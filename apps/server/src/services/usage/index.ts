/**
 * Usage's public face (issue 17): what the app, jobs and other services may use. Another service
 * imports from here, never from usage's other files.
 */

/** The usage API's routes, registered under the application manager's prefix (its routes.ts). */
export { usageRoutes } from './routes.ts';
export type { ApplicationCapWriter } from './report-repository.ts';
