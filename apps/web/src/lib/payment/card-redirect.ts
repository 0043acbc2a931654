/**
 * Leaves the SPA for `url` with a full page load, as Stripe's redirect does: the page returned to
 * starts afresh from its query. Its own module so tests can see where the browser would go
 * (jsdom does not navigate).
 */
export function redirectTo(url: string): void {
  window.location.assign(url);
}
