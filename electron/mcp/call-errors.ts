import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../shared/contract';
import { ToolError } from '../tools/tool';
import { redactErrorMessage } from '../vault/redactor';
import { TOO_LARGE_MESSAGE } from './capped-fetch';
import { quoted } from '../../shared/quote-words';

/** Why Deputy stopped a server: a call it cut short says so, rather than that the server died. */
export type StopReason = 'restarted' | 'turned_off' | 'removed' | 'closing';

/**
 * A call Deputy stopped by stopping the server (`reason`, a StopReason), in the words of what happened: cut short
 * once sent (`isSent`), it may or may not have happened; stopped before it was sent, nothing ran.
 */
export function stoppedError(name: string, tool: string, reason: unknown, isSent: boolean): ToolError {
  const when = isSent ? `during ${tool}` : `before ${tool} was sent to it`;
  const outcome = isSent ? 'so the call was stopped; it may or may not have happened.' : 'so nothing ran.';
  const words: Record<StopReason, string> = {
    restarted: `The MCP server ${quoted(name)} was restarted from Settings ${when}, ${outcome}`,
    turned_off: `The MCP server ${quoted(name)} was turned off in Settings ${when}, ${outcome} Its tools are not offered until it is turned on again.`,
    removed: `The MCP server ${quoted(name)} was removed in Settings ${when}, ${outcome} Its tools are no longer offered.`,
    closing: `Deputy was closing ${isSent ? `during ${tool} on` : `before ${tool} was sent to`} ${quoted(name)}, ${outcome}`,
  };
  return new ToolError('mcp_stopped', words[reason as StopReason] ?? words.restarted);
}

/** What follows a connection closed for a message too large: a stdio server is started again, an address reached again. */
export function reconnecting(config: McpServerConfig): string {
  return config.transport === 'http' ? 'Deputy is connecting to it again' : 'the server is being restarted';
}

export interface FailedCall {
  name: string;
  config: McpServerConfig;
  tool: string;
  error: unknown;
  /** The caller's signal: aborted, the call was cancelled, not failed. */
  signal: AbortSignal;
  /**
   * Set when the connection was closed for a message larger than the SDK reads: how many calls waited then. With
   * more than one, which of them that answer was for cannot be told.
   */
  waited: number | undefined;
  /** A line for the server's log. */
  note: (line: string) => void;
}

/** A call that failed, in words the model reads, with the code that says what kind of failure it was. */
export function callError({ name, config, tool, error, signal, waited, note }: FailedCall): ToolError {
  if (signal.aborted)
    return new ToolError('cancelled', `The call to ${tool} on ${quoted(name)} was stopped.`);
  if (waited !== undefined && waited > 1)
    return new ToolError(
      'mcp_server_died',
      `The MCP server ${quoted(name)} sent an answer of more than 10 MB, more than Deputy reads, while ${tool} and other calls waited for theirs, so its connection was closed and it is being restarted. Which call that answer was for cannot be told: ${tool} may or may not have happened.`,
    );
  const again = 'The call was made; ask for less (a smaller range, a page) if you try again.';
  if (waited !== undefined)
    return new ToolError(
      'mcp_answer_too_large',
      `The MCP server ${quoted(name)} answered ${tool} with more than 10 MB, more than Deputy reads, so the answer was dropped and ${reconnecting(config)}. ${again}`,
    );
  // Over HTTP only that answer was refused (capped-fetch.ts answers the call with this error): the server stays.
  if (error instanceof McpError && error.message.includes(TOO_LARGE_MESSAGE)) {
    note(`an answer to ${tool} of more than 10 MB was dropped`);
    return new ToolError(
      'mcp_answer_too_large',
      `The MCP server ${quoted(name)} answered ${tool} with more than 10 MB, more than Deputy reads, so the answer was dropped; the server is still connected. ${again}`,
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return new ToolError(
      'mcp_timeout',
      `The MCP server ${quoted(name)} did not answer ${tool} within ${config.callTimeoutSeconds} s; the call was abandoned and may or may not have happened.`,
    );
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return new ToolError(
      'mcp_server_died',
      `The MCP server ${quoted(name)} stopped during ${tool}, so the call may or may not have happened. Deputy starts the server again, unless it keeps stopping right after it starts.`,
    );
  // The server's own error message is content from outside: it is quoted, shortened, never trusted.
  const message = redactErrorMessage(error).slice(0, 500);
  return new ToolError(
    'mcp_error',
    `The MCP server ${quoted(name)} answered ${tool} with an error: ${message}`,
  );
}
