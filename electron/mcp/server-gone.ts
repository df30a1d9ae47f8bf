import { NAMESPACE_SEPARATOR } from '../tools/mcp/mcp-tool';

/** The start of every tool name of `server` (a server's name never holds the separator). */
export const toolPrefixOf = (server: string): string => `${server}${NAMESPACE_SEPARATOR}`;
