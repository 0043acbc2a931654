import type { App, Deps } from '../../types.ts';

/** Support and authorise enquiries (POST /contact-us-form, POST /contact-us-authorise). */
export async function contactRoutes(_app: App, _deps: Deps) {}
