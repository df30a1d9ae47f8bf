import { commands, streams } from '../../shared/contract';
import type { Rng } from '../chaos/prng';
import { mutate, pick, randomJson, randomString } from './values';

/**
 * Ids the host has handed out (runs, threads, approvals, memories), gathered from its answers, so the
 * fuzzer reaches past "not found" into approve, edit, cancel and delete of real things.
 */
export class IdPool {
  private readonly ids: string[] = [];

  learn(text: string): void {
    for (const match of text.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)) {
      if (this.ids.length >= 500) this.ids.splice(0, 100);
      this.ids.push(match[0]);
    }
  }

  any(rng: Rng): string {
    if (this.ids.length === 0 || rng.chance(0.2))
      return rng.chance(0.5) ? randomString(rng) : crypto.randomUUID();
    return pick(rng, this.ids);
  }
}

const MCP_NAMES = ['files', 'fuzz-one', 'a__b', '', 'x'.repeat(40), '../etc'];

const PROMPTS = ['Hi', 'What is on my task list?', 'Add a task to buy milk', 'Email sam@example.com hello'];

/** A plausible input for each command and stream of the contract, before mutation. */
function plausible(channel: string, rng: Rng, ids: IdPool): unknown {
  switch (channel) {
    case 'run.start':
      return {
        prompt: pick(rng, PROMPTS),
        ...(rng.chance(0.3) && { threadId: ids.any(rng) }),
        ...(rng.chance(0.3) && { conversation: [{ role: 'user', text: randomString(rng) }] }),
        ...(rng.chance(0.3) && {
          attachedContext: [{ type: 'email', id: ids.any(rng), title: randomString(rng), snippet: 'hi' }],
        }),
      };
    case 'run.cancel':
      return { runId: ids.any(rng) };
    case 'threads.list':
      return { limit: rng.int(0, 60), ...(rng.chance(0.3) && { before: randomString(rng) }) };
    case 'thread.get':
      return { threadId: ids.any(rng) };
    case 'settings.get':
    case 'sideEffects.get':
    case 'sideEffects.changed':
    case 'connections.list':
    case 'approvals.changed':
    case 'connections.changed':
      return {};
    case 'settings.set':
      return pick(rng, [
        { userName: randomString(rng) },
        { timezone: pick(rng, ['Europe/Paris', 'Nowhere/Else', 'UTC']) },
        { maxLoopSteps: rng.int(0, 20) },
        { trustLevel: pick(rng, ['supervised', 'delegated', 'autonomous', 'root']) },
        { allowlist: [randomString(rng)] },
        { approvalExpiryMinutes: rng.int(0, 20_000) },
        { rateLimits: { actionsPerMinute: rng.int(0, 20_000) } },
        { preferences: randomString(rng) },
        { embedRecentMail: pick(rng, [true, false, 'yes', 1]) },
        { model: pick(rng, ['gemini-2.5-flash', 'gemini-2.5-flsh', '', 'models/x', randomString(rng)]) },
        {
          modelPrices: {
            [pick(rng, ['gemini-2.5-flash', 'x y', ''])]: {
              input: rng.int(-5, 20),
              output: pick(rng, [1, -1, 'a']),
            },
          },
        },
      ]);
    case 'sideEffects.set':
      return pick(rng, [{ isPaused: rng.chance(0.5) }, { isPaused: 'yes' }, { paused: true }, {}]);
    case 'approval.list':
      return { status: pick(rng, ['pending', 'all', 'x']), limit: rng.int(0, 300) };
    case 'approval.decide':
      return rng.chance(0.5)
        ? { approvalId: ids.any(rng), decision: 'approve' }
        : { approvalId: ids.any(rng), decision: 'reject', reason: randomString(rng) };
    case 'approval.edit':
      return { approvalId: ids.any(rng), args: { description: randomString(rng), to: randomString(rng) } };
    case 'connections.connect':
      return pick(rng, [
        { name: 'slack', token: `xoxp-${randomString(rng)}` },
        { name: 'gemini', apiKey: randomString(rng) },
        { name: 'google' },
        { name: 'github' },
      ]);
    case 'connections.disconnect':
      return { name: pick(rng, ['google', 'slack', 'other']) };
    case 'memory.list':
      return { query: randomString(rng).slice(0, 250), limit: rng.int(0, 250), cursor: randomString(rng) };
    case 'memory.update':
      return { id: ids.any(rng), text: randomString(rng) };
    case 'memory.delete':
      return { id: ids.any(rng) };
    case 'thread.delete':
      return { threadId: ids.any(rng) };
    case 'thread.rename':
      return { threadId: ids.any(rng), title: randomString(rng).slice(0, rng.int(0, 260)) };
    case 'threads.prune':
      return { olderThanDays: rng.int(-1, 4_000), dryRun: rng.chance(0.7) };
    case 'models.list':
      return rng.chance(0.5) ? {} : { refresh: rng.chance(0.5) };
    case 'threads.search':
      return { query: pick(rng, [randomString(rng), '"', 'AND(', 'lisb*', '']), limit: rng.int(-1, 60) };
    case 'tasks.list':
      return { status: pick(rng, ['open', 'done', 'all', 'later']) };
    case 'tasks.change':
      return {
        tool: pick(rng, ['add_task', 'update_task', 'mark_task_complete', 'delete_task', 'send_email']),
        args: pick(rng, [
          { description: randomString(rng) },
          { id: ids.any(rng) },
          { id: ids.any(rng), due: 'soon' },
          [],
        ]),
      };
    // The bodies of POST /api/tasks and PATCH /api/tasks/:id: the task tools' own arguments.
    case 'tasks.add':
      return {
        description: randomString(rng),
        ...(rng.chance(0.5) && { due: pick(rng, ['2026-12-01', 'tomorrow']) }),
      };
    case 'tasks.update':
      return pick(rng, [{ description: randomString(rng) }, { due: null }, { notes: randomString(rng) }, {}]);
    case 'usage.daily':
      return { days: rng.int(-5, 120) };
    case 'data.stats':
    case 'data.compact':
    case 'context.stats':
    case 'context.clear':
      return {};
    // Servers that can never start (no such command, a closed port): the host keeps retrying them, boundedly.
    case 'mcp.put':
      return {
        name: pick(rng, MCP_NAMES),
        config: pick(rng, [
          { transport: 'stdio', command: '/nonexistent/deputy-fuzz-server', args: [randomString(rng)] },
          { transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': randomString(rng) } },
          { transport: 'stdio', command: '', enabled: rng.chance(0.5), autonomy: 'auto' },
          { transport: pick(rng, ['ws', 'stdio']), toolAutonomy: { x: pick(rng, ['auto', 'never']) } },
        ]),
        ...(rng.chance(0.5) && { secrets: { env: { API_KEY: randomString(rng) }, headers: {} } }),
      };
    case 'mcp.delete':
    case 'mcp.restart':
    case 'mcp.log':
      return { name: pick(rng, MCP_NAMES) };
    case 'mcp.list':
      return {};
    case 'mcp.import':
      return rng.chance(0.5)
        ? { path: pick(rng, ['/nonexistent/claude_desktop_config.json', '/etc/hostname', randomString(rng)]) }
        : {
            text: JSON.stringify({
              mcpServers: {
                [pick(rng, MCP_NAMES)]: {
                  command: '/nonexistent/deputy-fuzz-server',
                  env: { GITHUB_TOKEN: randomString(rng) },
                },
              },
            }),
          };
    // What another MCP client sends to /mcp; only reads are called, so no answer waits for an approval.
    case 'mcp.jsonrpc':
      return pick(rng, [
        {
          jsonrpc: '2.0',
          id: rng.int(0, 1_000),
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'fuzz', version: '1' },
          },
        },
        { jsonrpc: '2.0', id: rng.int(0, 1_000), method: 'ping' },
        { jsonrpc: '2.0', id: rng.int(0, 1_000), method: 'tools/list' },
        {
          jsonrpc: '2.0',
          id: rng.int(0, 1_000),
          method: 'tools/call',
          params: {
            name: pick(rng, ['list_tasks', 'search_memory', 'no_such_tool']),
            arguments: { query: randomString(rng) },
          },
        },
        { jsonrpc: '2.0', id: rng.int(0, 1_000), method: 'logging/setLevel', params: { level: 'debug' } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: rng.int(0, 1_000), method: randomString(rng) },
      ]);
    case 'audit.list':
      return {
        ...pick(rng, [
          {},
          { tool: pick(rng, ['add_task', 'gmail_send', randomString(rng)]) },
          { status: pick(rng, ['pending', 'completed', 'failed', 'rolled_back', 'sideways']) },
          { q: randomString(rng) },
          { threadId: ids.any(rng), from: '2026-01-01T00:00:00Z', to: randomString(rng) },
          { decision: pick(rng, ['allow', 'deny', 'INVOKE_TOOL']), risk: 'low', category: 'create' },
        ]),
        ...(rng.chance(0.5) && { limit: rng.int(0, 250) }),
        ...(rng.chance(0.3) && { cursor: pick(rng, [String(rng.int(0, 1e6)), randomString(rng)]) }),
      };
    case 'agents.list':
      return {};
    case 'agents.get':
      return { name: pick(rng, ['researcher', 'reviewer', 'inbox_triage', randomString(rng)]) };
    case 'agents.run':
      return {
        name: pick(rng, ['researcher', 'reviewer', randomString(rng)]),
        inputs: pick(rng, [{}, { question: randomString(rng) }, { draft: randomString(rng), thread_id: 7 }]),
      };
    case 'agents.setEnabled':
      return { name: pick(rng, ['researcher', randomString(rng)]), enabled: rng.chance(0.5) };
    case 'agents.import':
      return {
        fileName: pick(rng, ['a.md', 'b.yaml', 'c.json', randomString(rng)]),
        text: randomString(rng),
      };
    case 'runs.lineage':
    case 'artifacts.list':
      return { runId: ids.any(rng) };
    case 'artifacts.get':
      return { id: ids.any(rng) };
    case 'audit.get':
    case 'audit.assumptions':
      return { id: ids.any(rng) };
    case 'audit.verifyAssumption':
      return {
        id: ids.any(rng),
        assumptionId: ids.any(rng),
        verified: rng.chance(0.5),
        ...(rng.chance(0.4) && { correction: randomString(rng), remember: rng.chance(0.5) }),
      };
    case 'audit.undo':
      return { id: ids.any(rng), ...(rng.chance(0.5) && { force: rng.chance(0.5) }) };
    case 'audit.export':
      return {
        format: pick(rng, ['jsonl', 'csv', 'xml']),
        ...(rng.chance(0.3) && { q: randomString(rng) }),
        ...(rng.chance(0.2) && { cursor: randomString(rng) }),
      };
    case 'tasksAndMemories.export':
      return rng.chance(0.5)
        ? {}
        : { cursor: pick(rng, [`t${rng.int(0, 1e6)}`, `m${rng.int(0, 1e6)}`, randomString(rng)]) };
    case 'threads.export':
      return {
        format: pick(rng, ['jsonl', 'md', 'csv']),
        ...(rng.chance(0.3) && {
          cursor: pick(rng, [
            String(rng.int(0, 1e6)),
            `${rng.int(0, 50)}.${rng.int(0, 1e6)}`,
            randomString(rng),
          ]),
        }),
      };
    case 'audit.verifyChain':
      return {};
    case 'audit.decisions':
    case 'audit.toolInvocations':
      return {
        ...pick(rng, [{}, { runId: ids.any(rng) }, { threadId: ids.any(rng) }, { tool: randomString(rng) }]),
        ...(rng.chance(0.5) && { limit: rng.int(0, 250) }),
        ...(rng.chance(0.3) && { cursor: pick(rng, [String(rng.int(0, 1e6)), randomString(rng)]) }),
      };
    case 'plan.get':
    case 'plan.approve':
    case 'plan.cancel':
      return { planId: ids.any(rng) };
    case 'plan.continue':
      return { planId: ids.any(rng), ...(rng.chance(0.5) && { answer: randomString(rng) }) };
    case 'run.events':
      return rng.chance(0.5) ? { runId: ids.any(rng) } : { threadId: ids.any(rng) };
    default:
      return randomJson(rng);
  }
}

export const COMMAND_NAMES = Object.keys(commands);
export const STREAM_NAMES = Object.keys(streams);

/** A channel (mostly real, sometimes not) and an input (mostly plausible, often mutated). */
export function channelInput(rng: Rng, ids: IdPool, kind: 'command' | 'stream'): [string, unknown] {
  const names = kind === 'command' ? COMMAND_NAMES : STREAM_NAMES;
  const channel = rng.chance(0.95)
    ? pick(rng, names)
    : pick(rng, ['', 'run', '__proto__', 'toString', randomString(rng)]);
  return [channel, mutate(rng, plausible(channel, rng, ids))];
}

/** The plausible body of an HTTP route's request, keyed like the route table in http-cases.ts. */
export function routeBody(channel: string, rng: Rng, ids: IdPool): unknown {
  return mutate(rng, plausible(channel, rng, ids));
}
