/**
 * Deep links other apps (and Deputy's own notifications) may open: `deputy://approval/<id>` and
 * `deputy://thread/<id>`. Kept free of Electron so the parser is tested on its own: a link is input from
 * outside the app, so it is checked as strictly as any IPC input before anything acts on it.
 */
export const DEEP_LINK_SCHEME = 'deputy';

export type DeepLink = { kind: 'approval'; approvalId: string } | { kind: 'thread'; threadId: string };

/** The shape of Deputy's own ids (UUIDs and the like), as the contract's ThreadId says. */
const ID = /^[\w-]{1,128}$/;
/** A link is short; anything longer is not one of ours and is not worth parsing. */
const MAX_LINK_CHARS = 300;

export function parseDeepLink(value: unknown): DeepLink | null {
  if (typeof value !== 'string' || value.length > MAX_LINK_CHARS) return null;
  const url = URL.parse(value);
  // A userinfo, query or fragment has no meaning in our links; refusing them keeps one spelling per link.
  if (!url || url.protocol !== `${DEEP_LINK_SCHEME}:` || url.username || url.password) return null;
  if (url.search || url.hash || url.port) return null;
  // Only the canonical spelling: the parser quietly resolves `..` and the like, and a link that needed
  // rewriting to make sense is not one Deputy wrote.
  if (url.href !== value) return null;
  const kind = url.host;
  const id = url.pathname.replace(/^\//, '');
  // No decoding: a valid id needs none, so an encoded one is refused rather than interpreted.
  if (!ID.test(id)) return null;
  if (kind === 'approval') return { kind, approvalId: id };
  if (kind === 'thread') return { kind, threadId: id };
  return null;
}

/** On Windows and Linux the OS starts (or wakes) the app with the link among its command-line arguments. */
export function findDeepLink(argv: readonly string[]): DeepLink | null {
  for (const arg of argv) {
    if (!arg.startsWith(`${DEEP_LINK_SCHEME}:`)) continue;
    const link = parseDeepLink(arg);
    if (link) return link;
  }
  return null;
}

export function deepLinkUrl(link: DeepLink): string {
  return link.kind === 'approval'
    ? `${DEEP_LINK_SCHEME}://approval/${link.approvalId}`
    : `${DEEP_LINK_SCHEME}://thread/${link.threadId}`;
}
