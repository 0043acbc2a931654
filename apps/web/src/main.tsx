import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PlatformStatus } from './features/status/platform-status.tsx';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import './styles.css';

async function loadStatus() {
  const [config, healthResponse] = await Promise.all([loadRuntimeConfig(), fetch('/api/health')]);
  document.title = `Platform status | ${config.productName}`;
  return { config, health: await healthResponse.json() };
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PlatformStatus load={loadStatus} />
  </StrictMode>,
);
