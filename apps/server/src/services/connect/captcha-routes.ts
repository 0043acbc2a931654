import type { App, Deps } from '../../types.ts';

/** The sign-up captcha's challenge endpoint (self-hosted proof of work). */
export async function captchaRoutes(_app: App, _deps: Deps) {}
