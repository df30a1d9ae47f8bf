import type { ServerResponse } from 'node:http';
import { parseInput, ThreadsExportInput } from '../../shared/contract';
import type { Host } from '../host/host';
import type { CommandSender, Route } from './api-routes';
import { streamExport } from './export-stream';
import { queryNumber, readJsonObject } from './http-io';

/** Conversations: the list, search, the export of all of them, and one by its id. Fixed paths come before `:id`. */
export function threadRoutes(host: Host, command: CommandSender): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/threads$/,
      handle: async (_req, res, _params, query) => {
        const limit = query.get('limit');
        const before = query.get('before');
        await command(res, 'threads.list', {
          ...(limit !== null && { limit: queryNumber(limit) }),
          ...(before !== null && { before }),
        });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/threads\/search$/,
      handle: async (_req, res, _params, query) => {
        const limit = query.get('limit');
        await command(res, 'threads.search', {
          query: query.get('q') ?? '',
          ...(limit !== null && { limit: queryNumber(limit) }),
        });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/threads\/export$/,
      handle: async (_req, res, _params, query) => {
        const cursor = query.get('cursor');
        await streamThreadExport(host, res, {
          format: query.get('format') ?? 'jsonl',
          ...(cursor !== null && { cursor }),
        });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/threads\/([^/]+)$/,
      handle: async (_req, res, [threadId]) => command(res, 'thread.get', { threadId }),
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/threads\/([^/]+)$/,
      handle: async (_req, res, [threadId]) => command(res, 'thread.delete', { threadId }),
    },
    {
      method: 'PATCH',
      pattern: /^\/api\/threads\/([^/]+)$/,
      handle: async (req, res, [threadId]) =>
        command(res, 'thread.rename', { ...(await readJsonObject(req)), threadId }),
    },
  ];
}

const EXPORT_TYPES = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
} as const;

/** Every conversation, oldest first, as JSON lines or one Markdown document. */
async function streamThreadExport(host: Host, res: ServerResponse, raw: unknown): Promise<void> {
  const { format, cursor } = parseInput(ThreadsExportInput, raw);
  const file = { contentType: EXPORT_TYPES[format], fileName: `deputy-conversations.${format}` };
  await streamExport(res, file, cursor, (at) =>
    host.invoke('threads.export', { format, ...(at !== undefined && { cursor: at }) }),
  );
}
