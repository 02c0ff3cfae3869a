import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** The built web app under BASE_PATH, with the SPA fallback for client-side routes. */
describe('web app under /clinica/', () => {
  let testApp: TestApp;
  let distDir: string;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(
      path.join(distDir, 'index.html'),
      '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/app-abc123.js"></script></head><body></body></html>',
    );
    await writeFile(path.join(distDir, 'assets/app-abc123.js'), 'console.log("odontia");');
    await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    testApp = await createTestApp({ env: { BASE_PATH: '/clinica', WEB_DIST_DIR: distDir } });
  });

  afterAll(async () => {
    await testApp?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers });

  it('serves the page with the base path for every client-side route', async () => {
    for (const url of [
      '/clinica/',
      '/clinica/dashboard',
      '/clinica/patients/123/mh/diagnosis/new',
      '/clinica/error-404',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<base href="/clinica/" />');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    }
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

  it('answers 404 for a missing file instead of the page', async () => {
    for (const url of ['/clinica/assets/app-old999.js', '/clinica/robots.txt']) {
      const response = await get(url);
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
