import './styles/inter.css';
import './styles/plain.css';
import './styles/plain-fields.css';
import './styles/plain-actions.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/app.tsx';
import { preloadSignedInStart } from './app/router.tsx';
import { configureAuth, preloadAuth } from './lib/auth.ts';
import { initI18n } from './lib/i18n.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import { session } from './lib/storage.ts';

const root = createRoot(document.getElementById('root')!);

// Amplify loads on first use (lib/auth.ts). A signed-in start needs it for the gate's first
// request, so fetch it alongside the configuration, and the user's queries and schemas with it
// (app/router.tsx imports them once the router exists), ahead of the page's own chunks; on a
// public page, the first key or pointer press means a form may soon be sent.
if (session.hasMarker()) {
  preloadAuth();
  void import('./lib/current-user.ts').catch(() => undefined); // the gate reports a failure
} else
  for (const type of ['keydown', 'pointerdown']) addEventListener(type, preloadAuth, { once: true, passive: true });

async function start() {
  // The first texts, the configuration (preloaded by index.html) and then the page's modules load
  // side by side rather than one after the other.
  const texts = initI18n();
  texts.catch(() => undefined); // reported below, by the await, unless the configuration failed first
  const config = await loadRuntimeConfig();
  // After Amplify, the texts and the configuration were asked for: the page's chunks queue behind
  // them on the browser's six connections, not in front of the gate's requests.
  if (session.hasMarker()) preloadSignedInStart(location.pathname);
  configureAuth(config);
  const router = createAppRouter();
  await texts;
  root.render(
    <StrictMode>
      <Suspense fallback={null}>
        <App router={router} />
      </Suspense>
    </StrictMode>,
  );
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
