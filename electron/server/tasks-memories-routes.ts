import { parseInput, TasksAndMemoriesExportInput } from '../../shared/contract';
import type { Host } from '../host/host';
import type { Route } from './api-routes';
import { streamExport } from './export-stream';

const FILE = {
  contentType: 'application/x-ndjson; charset=utf-8',
  fileName: 'deputy-tasks-and-memories.jsonl',
};

/** "Export tasks and memories": every task, then every memory, as JSON lines, streamed a page at a time. */
export function tasksMemoriesRoutes(host: Host): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/tasks-and-memories\/export$/,
      handle: async (_req, res, _params, query) => {
        const raw = query.get('cursor');
        const { cursor } = parseInput(TasksAndMemoriesExportInput, raw === null ? {} : { cursor: raw });
        await streamExport(res, FILE, cursor, (at) =>
          host.invoke('tasksAndMemories.export', at === undefined ? {} : { cursor: at }),
        );
      },
    },
  ];
}
