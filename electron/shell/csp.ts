/**
 * The app's Content Security Policy. Scripts, styles and connections come from the app itself and nowhere
 * else, so an injected `<script>` or a rendered link cannot load or send anything. Styles may be inline
 * because React sets `style` attributes. While developing, the dev server's inline HMR preamble and its
 * WebSocket are allowed too; a packaged app never takes that branch.
 */
export function contentSecurityPolicy(devServer?: URL): string {
  const hmrSocket = devServer ? `${devServer.protocol === 'https:' ? 'wss:' : 'ws:'}//${devServer.host}` : '';
  const directives = [
    "default-src 'self'",
    devServer ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    devServer ? `connect-src 'self' ${hmrSocket}` : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ];
  return directives.join('; ');
}
