import './styles/inter.css';
import './styles/plain.css';
import './styles/plain-fields.css';
import './styles/plain-actions.css';
import './styles/plain-frame.css';
import { startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter, type AppRouter } from './app/app.tsx';
import { startsInFrame } from './app/gate.ts';
import { preloadSignedInStart } from './app/router.tsx';
import { FramePlaceholder } from './components/layouts/main-layout/frame-placeholder.tsx';
import { configureAuth, preloadAuth } from './lib/auth.ts';
import { initI18n } from './lib/i18n.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import { session } from './lib/storage.ts';

const root = createRoot(document.getElementById('root')!);

/**
 * A signed-in start into the frame (a reload, a bookmark, a new tab of /dashboard…) paints the
 * frame's outline with the cookie banner (frame-placeholder.tsx) as soon as the configuration and
 * the first texts are there, and only then asks for Amplify, the gate's schemas and the frame's and
 * page's chunks, which it shows until the router has restored the session and loaded the page.
 * The banner is /dashboard's largest text: painted with the whole frame it made Lighthouse's LCP
 * 1.26–1.44 s (score 94–96); painted first, 0.63–0.79 s (score 99–100; medians of five, the same
 * hour, docs/benchmarks.md). Asked for before that paint, the ~340 KB of chunks
 * competed with it for the (simulated) network, and the gate's schemas took the main thread for
 * one ~140 ms task (zod building every shared schema) just as the first texts arrived.
 */
const isFrameStart = startsInFrame(location.pathname, session.hasMarker());

// Amplify loads on first use (lib/auth.ts): a signed-in start needs it for the gate's first request
// (a frame start, after its first paint); on a public page, the first key or pointer press means a
// form may soon be sent.
if (!session.hasMarker())
  for (const type of ['keydown', 'pointerdown']) addEventListener(type, preloadAuth, { once: true, passive: true });
else if (!isFrameStart) {
  preloadAuth();
  void import('./lib/current-user.ts').catch(() => undefined); // the gate reports a failure
}

/** Resolves once the browser has painted what was rendered (at once in a hidden tab, which paints nothing). */
function afterNextPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

function whenInitialized(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

async function start() {
  // The first texts, the configuration (preloaded by index.html) and then the page's modules load
  // side by side rather than one after the other. The frame's placeholder needs the layout's texts.
  const texts = initI18n(isFrameStart ? ['common', 'auth', 'layout'] : undefined);
  texts.catch(() => undefined); // reported below, by the await, unless the configuration failed first
  const config = await loadRuntimeConfig();
  configureAuth(config);
  if (isFrameStart) {
    // Painted with a fallback font, the banner's text measured less than with Inter, and the
    // frame's banner then became a new, later Largest Contentful Paint (Lighthouse 1.48 s in one
    // run of five): the placeholder waits for Inter too (preloaded by index.html, ~49 KB).
    await Promise.all([texts, document.fonts.load('1em "Inter Variable"').catch(() => undefined)]);
    root.render(
      <StrictMode>
        <FramePlaceholder />
      </StrictMode>,
    );
    await afterNextPaint();
    preloadAuth();
    preloadSignedInStart(location.pathname);
    // Asking for ~40 chunks (a link each) and creating the router (its route table, the gate's
    // start) made one task of ~200 ms in a trace at load ~5: two shorter ones keep the thread free.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const router = createAppRouter();
  await texts;
  const app = (
    <StrictMode>
      <Suspense fallback={null}>
        <App router={router} />
      </Suspense>
    </StrictMode>
  );
  if (isFrameStart) {
    // The placeholder stays until the page is ready; then the frame replaces it in a transition, so
    // React renders it in slices of a few milliseconds, not in one long task.
    await whenInitialized(router);
    startTransition(() => root.render(app));
  } else root.render(app);
}

start().catch((error: unknown) => {
  // Nothing else can render without the configuration: say so plainly, with a way to retry.
  const main = document.createElement('main');
  main.setAttribute('role', 'alert');
  main.style.cssText = 'font-family: system-ui, sans-serif; max-width: 560px; margin: 15vh auto; padding: 0 24px;';
  const heading = document.createElement('h1');
  heading.textContent = 'The portal could not start';
  const text = document.createElement('p');
  text.textContent = `It could not load its configuration from the server (${error instanceof Error ? error.message : String(error)}). Check your connection and try again.`;
  const button = document.createElement('button');
  button.textContent = 'Reload';
  button.addEventListener('click', () => window.location.reload());
  main.append(heading, text, button);
  document.getElementById('root')!.replaceWith(main);
});
