import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isNestedDeeperThan } from '../../shared/nesting';
import type { McpToolSpec } from '../tools/mcp/mcp-tool';
import { quoted } from '../../shared/quote-words';

/** A server lists at most this many tools (pages of `tools/list`), so a hostile one cannot fill memory. */
const MAX_TOOLS = 500;
const MAX_PAGES = 20;
/**
 * Deeper than any real tool's listing (its input schema included) goes. One nested thousands of levels deep ran the
 * listing out of stack, and the whole server, good tools and all, could not start.
 */
const MAX_LISTING_DEPTH = 64;

/** A page of `tools/list` whose tools are read one by one (the SDK's own schema refuses the page for one bad tool). */
const ToolsPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * Every tool a server lists, page by page. Each is checked on its own: a malformed listing (no name, a schema that
 * is not an object) leaves that tool out, with a line in the server's log, rather than the whole server, which
 * would never start and show zod's dump in Settings.
 */
export async function listTools(
  client: Client,
  timeoutMs: number,
  note: (line: string) => void,
): Promise<McpToolSpec[]> {
  const tools: McpToolSpec[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS; page += 1) {
    const listed = await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      ToolsPage,
      {
        timeout: timeoutMs,
      },
    );
    for (const [index, raw] of listed.tools.entries()) {
      // Checked first: the schema check, the model's declarations and the audit trail all recurse into it.
      if (isNestedDeeperThan(raw, MAX_LISTING_DEPTH)) {
        note(
          `tool ${listingName(raw, index)} left out: its listing is nested more than ${MAX_LISTING_DEPTH} levels deep`,
        );
        continue;
      }
      const tool = ToolSchema.safeParse(raw);
      if (tool.success) tools.push(tool.data as McpToolSpec);
      else
        note(
          `tool ${listingName(raw, index)} left out: its listing is malformed (${firstIssue(tool.error)})`,
        );
    }
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  const beyond = tools.slice(MAX_TOOLS).map((tool) => quoted(tool.name.slice(0, 100)));
  if (beyond.length > 0)
    note(
      `${beyond.length} tool(s) left out: a server may offer at most ${MAX_TOOLS}, so only its first ${MAX_TOOLS} are offered (left out: ${namesInBrief(beyond)})`,
    );
  if (cursor)
    note(
      `the rest of its tool list was not read: Deputy reads at most ${MAX_TOOLS} tools in ${MAX_PAGES} pages`,
    );
  return tools.slice(0, MAX_TOOLS);
}

/** The first ten names, and how many more: a log line stays short however many were left out. */
function namesInBrief(names: string[]): string {
  return names.length > 10
    ? `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`
    : names.join(', ');
}

/** How the log names a tool whose listing is malformed: its name if it has one, else its place in the page. */
function listingName(raw: unknown, index: number): string {
  const name = typeof raw === 'object' && raw !== null && 'name' in raw ? raw.name : undefined;
  return typeof name === 'string' ? quoted(name.slice(0, 100)) : `#${index + 1} (no name)`;
}

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'the listing'}: ${issue.message}` : 'malformed';
}
