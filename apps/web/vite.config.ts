import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true },
  server: {
    // `npm run dev -w apps/web` talks to a server started with `npm start` on 8080.
    proxy: {
      '/api': 'http://localhost:8080',
      '/idp': 'http://localhost:8080',
      '/runtime-config.json': 'http://localhost:8080',
    },
  },
});
