import type { ServerResponse } from 'node:http';
import { AuditExportInput, parseInput } from '../../shared/contract';
import type { Host } from '../host/host';
import type { CommandSender, Route } from './api-routes';
import { streamExport } from './export-stream';
import { queryNumber, readJsonObject, readOptionalJsonObject } from './http-io';

/** Query keys of GET /api/audit and the export, and the filter each one sets. */
const FILTER_KEYS: Record<string, string> = {
  from: 'from',
  to: 'to',
  thread: 'threadId',
  run: 'runId',
  agent: 'agentId',
  tool: 'tool',
  category: 'category',
  status: 'status',
  risk: 'risk',
  decision: 'decision',
  q: 'q',
  cursor: 'cursor',
};

function filterOf(query: URLSearchParams): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(FILTER_KEYS)) {
    const value = query.get(key);
    if (value !== null) filter[field] = value;
  }
  return filter;
}

/** The filter of spec 002's logs: by run or conversation (and tool), paged. */
function logFilterOf(query: URLSearchParams, extra: readonly string[] = []): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const key of ['run', 'thread', 'cursor', ...extra]) {
    const value = query.get(key);
    if (value !== null) filter[FILTER_KEYS[key] ?? key] = value;
  }
  const limit = query.get('limit');
  if (limit !== null) filter.limit = queryNumber(limit);
  return filter;
}

/** Spec 004's audit routes, plus undo, export and the chain check. Specific paths come before `:id`. */
export function auditRoutes(host: Host, command: CommandSender): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/audit$/,
      handle: async (_req, res, _params, query) => {
        const limit = query.get('limit');
        await command(res, 'audit.list', {
          ...filterOf(query),
          ...(limit !== null && { limit: queryNumber(limit) }),
        });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/audit\/verify$/,
      handle: async (_req, res) => command(res, 'audit.verifyChain', {}),
    },
    {
      method: 'GET',
      pattern: /^\/api\/audit\/export$/,
      handle: async (_req, res, _params, query) =>
        streamAuditExport(host, res, { ...filterOf(query), format: query.get('format') ?? 'jsonl' }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/audit\/decisions$/,
      handle: async (_req, res, _params, query) => command(res, 'audit.decisions', logFilterOf(query)),
    },
    {
      method: 'GET',
      pattern: /^\/api\/audit\/tool-invocations$/,
      handle: async (_req, res, _params, query) =>
        command(res, 'audit.toolInvocations', logFilterOf(query, ['tool'])),
    },
    {
      method: 'GET',
      pattern: /^\/api\/audit\/([^/]+)$/,
      handle: async (_req, res, [id]) => command(res, 'audit.get', { id }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/audit\/([^/]+)\/assumptions$/,
      handle: async (_req, res, [id]) => command(res, 'audit.assumptions', { id }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/audit\/([^/]+)\/verify$/,
      handle: async (req, res, [id]) =>
        command(res, 'audit.verifyAssumption', { ...(await readJsonObject(req)), id }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/audit\/([^/]+)\/undo$/,
      handle: async (req, res, [id]) =>
        command(res, 'audit.undo', { ...(await readOptionalJsonObject(req)), id }),
    },
  ];
}

/** The audit trail's export of the filtered entries, as JSON lines or CSV. */
async function streamAuditExport(host: Host, res: ServerResponse, raw: unknown): Promise<void> {
  const { cursor, ...input } = parseInput(AuditExportInput, raw);
  const file = {
    contentType: input.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    fileName: `deputy-audit.${input.format}`,
  };
  await streamExport(res, file, cursor, (at) =>
    host.audit.exportPage({ ...input, ...(at !== undefined && { cursor: at }) }),
  );
}
