import { serverGoneWords } from '../../shared/rejection-words';
import { NAMESPACE_SEPARATOR } from '../tools/mcp/mcp-tool';

/** How a server's tools went away from Settings: it was removed, or turned off (its settings kept). */
export type ServerGone = 'removed' | 'turned_off';

/** The start of every tool name of `server` (a server's name never holds the separator). */
export const toolPrefixOf = (server: string): string => `${server}${NAMESPACE_SEPARATOR}`;

/** What an approval left waiting for a tool of `server` is turned down with: a note for the person, words for the model. */
export function refusalForGone(server: string, how: ServerGone) {
  const what = how === 'removed' ? 'removed' : 'turned off';
  const after =
    how === 'removed'
      ? 'Its tools are no longer offered; do not retry it unless the user adds the server again.'
      : 'Its tools are not offered until the user turns it on again.';
  return {
    code: how === 'removed' ? 'mcp_server_removed' : 'mcp_server_turned_off',
    note: `Turned down by Deputy: the MCP server "${server}" was ${what} in Settings.`,
    message: `${serverGoneWords(server, what)} ${after}`,
  };
}
