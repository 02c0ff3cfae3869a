import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** The built web app under BASE_PATH, with the SPA fallback for client-side routes. */
describe('web app under /clinica/', () => {
  const vendorJs = Buffer.from(
    Array.from({ length: 400 }, (_, i) => `export const line${i} = "odontia ${i % 7}";`).join('\n'),
  );
  let testApp: TestApp;
  let distDir: string;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(
      path.join(distDir, 'index.html'),
      '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/app-abc123.js"></script></head><body></body></html>',
    );
    await writeFile(
      path.join(distDir, 'portal.html'),
      '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/portal-abc123.js"></script></head><body></body></html>',
    );
    await writeFile(path.join(distDir, 'assets/app-abc123.js'), 'console.log("odontia");');
    // As the build leaves a text file (apps/web/precompress.ts): itself, `.br` and `.gz`.
    await writeFile(path.join(distDir, 'assets/vendor-def456.js'), vendorJs);
    await writeFile(path.join(distDir, 'assets/vendor-def456.js.br'), brotliCompressSync(vendorJs));
    await writeFile(path.join(distDir, 'assets/vendor-def456.js.gz'), gzipSync(vendorJs));
    await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    testApp = await createTestApp({ env: { BASE_PATH: '/clinica', WEB_DIST_DIR: distDir } });
  });

  afterAll(async () => {
    await testApp?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers });

  /** Each path answers its app's page (no-cache, the base path, the CSP), never the other app's. */
  async function expectPage(urls: string[], script: string, otherScript: string) {
    for (const url of urls) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body, url).toContain('<base href="/clinica/" />');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.body, url).toContain(script);
      expect(response.body, url).not.toContain(otherScript);
    }
  }

  it('serves the page with the base path for every client-side route', async () => {
    await expectPage(
      ['/clinica/', '/clinica/dashboard', '/clinica/patients/123/mh/diagnosis/new', '/clinica/error-404'],
      'app-abc123.js',
      'portal-abc123.js',
    );
  });

  it("serves the patient portal's own page for the clinic's public pages and the patient's", async () => {
    await expectPage(
      [
        '/clinica/c/clinica-sonrisa',
        '/clinica/c/clinica-sonrisa/book?treatment=abc&day=2026-12-01',
        '/clinica/c/clinica-sonrisa/book/confirm/abc123',
        '/clinica/portal',
        '/clinica/portal/',
        '/clinica/portal/sign-in',
        '/clinica/p/clinica-sonrisa/link/abc123',
        '/clinica/booking/confirm/abc123',
      ],
      'portal-abc123.js',
      'app-abc123.js',
    );
    // Staff paths that only begin with the same letters keep the staff app's page.
    await expectPage(
      ['/clinica/calendar', '/clinica/collections', '/clinica/portals', '/clinica/', '/clinica/c-list'],
      'app-abc123.js',
      'portal-abc123.js',
    );
  });

  it('serves hashed assets with a long cache and other files without', async () => {
    const asset = await get('/clinica/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    const favicon = await get('/clinica/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe('no-cache');
  });

  it('serves the precompressed copy the browser accepts, brotli first, with Vary', async () => {
    const asset = '/clinica/assets/vendor-def456.js';
    const br = await get(asset, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(vendorJs.length / 4);
    expect(brotliDecompressSync(br.rawPayload).equals(vendorJs)).toBe(true);

    const gz = await get(asset, { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toContain('javascript');
    expect(gz.headers.vary).toContain('Accept-Encoding');
    expect(gz.rawPayload.length).toBeLessThan(vendorJs.length / 4);
    expect(gunzipSync(gz.rawPayload).equals(vendorJs)).toBe(true);

    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ]) {
      const plain = await get(asset, headers);
      expect(plain.statusCode, JSON.stringify(headers)).toBe(200);
      expect(plain.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(plain.headers.vary, JSON.stringify(headers)).toContain('Accept-Encoding');
      expect(plain.rawPayload.equals(vendorJs), JSON.stringify(headers)).toBe(true);
    }

    // A file without compressed copies (too small to be worth it) is served as it is.
    const small = await get('/clinica/assets/app-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log("odontia");');
  });

  it('answers 404 for a missing file instead of the page', async () => {
    for (const url of ['/clinica/assets/app-old999.js', '/clinica/robots.txt']) {
      const response = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).not.toContain('text/html');
    }
  });

  it('redirects the server root to the base path and serves the bare base path', async () => {
    const root = await get('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/clinica/');
    const bare = await get('/clinica');
    expect(bare.statusCode).toBe(200);
    expect(bare.body).toContain('<base href="/clinica/" />');
  });

  it('answers JSON 404 for unknown API paths and paths outside the base', async () => {
    const api = await get('/clinica/api/unknown');
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('route_not_found');
    const outside = await get('/elsewhere/page');
    expect(outside.statusCode).toBe(404);
    expect(outside.json().code).toBe('route_not_found');
  });

  it('does not answer the page for other methods', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/clinica/dashboard', payload: {} });
    expect(response.statusCode).toBe(404);
  });

  it('never serves files outside the build', async () => {
    const response = await get('/clinica/..%2f..%2fetc%2fpasswd');
    expect(response.body).not.toContain('root:');
  });
});
