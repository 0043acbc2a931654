import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

// A build as apps/web writes it: each text asset with its brotli and gzip copies, except a chunk
// too small to gain from compression, which has none.
const script = `export const greeting = ${JSON.stringify('hello '.repeat(200))};\n`;
const html = `<!doctype html><html><head><title>Compressed shell</title></head><body>${'<div></div>'.repeat(50)}</body></html>`;
const tiny = 'export {};\n';

function writeWithCopies(file: string, text: string) {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

describe('compressed static files', () => {
  let t: TestContext;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'connect-spa-'));
    mkdirSync(path.join(dist, 'assets'));
    writeWithCopies(path.join(dist, 'assets/app-abc123.js'), script);
    writeWithCopies(path.join(dist, 'index.html'), html);
    writeFileSync(path.join(dist, 'assets/tiny-abc123.js'), tiny);
    t = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(() => t?.close());

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the brotli copy of a hashed asset to a client that accepts it, cached for a year', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('falls back to the file itself without an accepted encoding, still varying on it', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
      const res = await get('/assets/app-abc123.js', acceptEncoding);
      expect(res.statusCode, String(acceptEncoding)).toBe(200);
      expect(res.headers['content-encoding'], String(acceptEncoding)).toBeUndefined();
      expect(res.headers.vary, String(acceptEncoding)).toMatch(/accept-encoding/i);
      expect(res.body).toBe(script);
    }
  });

  it('sends a file without compressed copies as it is', async () => {
    const res = await get('/assets/tiny-abc123.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe(tiny);
  });

  it('compresses the history-mode fallback too, but never caches it', async () => {
    for (const url of ['/login', '/dashboard', '/index.html']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe(url === '/index.html' ? 'public, max-age=0' : 'no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
    }
  });

  it('does not serve the compressed copies as files of their own', async () => {
    for (const url of ['/assets/app-abc123.js.br', '/assets/app-abc123.js.gz', '/index.html.gz']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('leaves the runtime configuration uncached and API answers alone', async () => {
    const config = await get('/runtime-config.json', 'br, gzip');
    expect(config.statusCode).toBe(200);
    expect(config.headers['cache-control']).toMatch(/no-(cache|store)/);
    const missing = await get('/api/connect/nothing-here', 'br, gzip');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });
});
