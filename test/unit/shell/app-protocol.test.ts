import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ protocol: {} }));

const { createAppProtocolHandler, resolveAppPath } = await import('../../../electron/shell/app-protocol');
const { contentSecurityPolicy } = await import('../../../electron/shell/csp');

const base = mkdtempSync(join(tmpdir(), 'deputy-protocol-'));
const root = join(base, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Deputy</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(base, 'secret.txt'), 'the vault key');
mkdirSync(join(base, 'renderer-evil'));
writeFileSync(join(base, 'renderer-evil', 'index.html'), 'not ours');
symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));

const handler = createAppProtocolHandler(root);
const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('app://deputy serves the built renderer', () => {
  it('serves its files with their type and the strict CSP', async () => {
    const page = await get('app://deputy/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<title>Deputy</title>');
    const script = await get('app://deputy/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://deputy/')).status).toBe(200);
  });

  it.each([
    'app://deputy/../secret.txt',
    'app://deputy/%2e%2e/secret.txt',
    'app://deputy/assets/..%2F..%2Fsecret.txt',
    'app://deputy/..%5Csecret.txt',
    'app://deputy/%2E%2E%2F%2E%2E%2Fsecret.txt',
    'app://deputy/..%2Frenderer-evil/index.html',
    'app://deputy/index.html%00.png',
    'app://deputy/%E0%A4%A',
    'app://deputy/assets/link.txt',
    'app://deputy/missing.html',
    'app://other/index.html',
    'file:///etc/passwd',
  ])('refuses %s (nothing outside the renderer folder, nothing that is not there)', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('the vault key');
  });

  it('answers only reads', async () => {
    expect((await get('app://deputy/index.html', 'POST')).status).toBe(405);
    const head = await get('app://deputy/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('resolves a path inside the folder and nothing else', () => {
    expect(resolveAppPath(root, 'app://deputy/assets/app.js')).toBe(join(root, 'assets', 'app.js'));
    expect(resolveAppPath(root, 'app://deputy/%2e%2e%2f%2e%2e%2fsecret.txt')).toBeNull();
    expect(resolveAppPath(root, 'not a url')).toBeNull();
  });
});
