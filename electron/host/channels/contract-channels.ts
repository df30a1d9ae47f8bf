import { notFound, type CommandName } from '../../../shared/contract';
import { agentHandlers } from '../agent-handlers';
import type { ApprovalsBus } from '../approvals-bus';
import type { Desks } from '../host-desks';
import type { HostDeps } from '../host-deps';
import type { HostRuns } from '../host-runs';
import { shownName } from '../../agents/definition';
import { TasksMemoriesExport } from '../tasks-memories-export';
import { ThreadExport } from '../thread-export';
import { auditChannels } from './audit-channels';
import type { HandlersFor, StreamHandlers } from './handlers';
import { mcpChannels } from './mcp-channels';
import { memoryChannels } from './memory-channels';
import { planChannels } from './plan-channels';
import { settingsChannels } from './settings-channels';
import { taskChannels } from './task-channels';
import { threadChannels } from './thread-channels';

export type Handlers = HandlersFor<CommandName>;

/** Every command of the contract, each answered by the desk or service that owns it. */
export function contractHandlers(deps: HostDeps, runs: HostRuns, desks: Desks): Handlers {
  const { store, now, context } = deps;
  const tasksMemoriesExport = new TasksMemoriesExport(store.tasksMemoriesExport);
  return {
    ...agentHandlers(desks.agents, deps.agentCatalog, deps.registry, store),
    'run.start': (input) => runs.start(input),
    // A run that exists but is no longer working answers cancelled:false; an id no run ever had is not_found.
    'run.cancel': (input) => {
      const cancelled = runs.cancel(input.runId);
      if (!cancelled && !store.runs.get(input.runId)) throw notFound('run', input.runId);
      return { cancelled };
    },
    ...threadChannels(
      store,
      desks.data,
      (threadId) => desks.approvals.inThread(threadId),
      new ThreadExport({
        rows: store.threadExport,
        now,
        timezone: () => deps.settings.get().timezone,
        // As the agent's row in the chat names it (shownName); one no longer installed, by its internal name.
        agentName: (name) => {
          const definition = deps.agentCatalog.get(name)?.definition;
          return definition ? shownName(definition) : name;
        },
      }),
    ),
    'tasksAndMemories.export': (input) => tasksMemoriesExport.page(input),
    'data.stats': () => desks.data.stats(),
    'data.compact': () => desks.data.compact(),
    'context.stats': () => context.stats(),
    'context.clear': () => {
      context.clear();
      return context.stats();
    },
    ...settingsChannels({
      store,
      settings: deps.settings,
      now,
      models: deps.models,
      logError: deps.logError,
      admitWaiting: () => runs.active.admitWaiting(),
      recentMailChanged: () => context.recentMailChanged(),
    }),
    'sideEffects.get': () => desks.sideEffects.state(),
    'sideEffects.set': (input) => desks.sideEffects.set(input.isPaused),
    'approval.list': (input) => ({ approvals: desks.approvals.list(input.status, input.limit) }),
    'approval.decide': (input) => desks.approvals.decide(input),
    'approval.edit': (input) => desks.approvals.edit(input),
    'connections.list': () => ({ connections: deps.connections.list() }),
    'connections.connect': (input) => deps.connections.connect(input),
    'connections.disconnect': async (input) => ({ status: await deps.connections.disconnect(input.name) }),
    ...taskChannels({
      store,
      now,
      start: (request, model) => runs.launcher.launch(request, undefined, model, undefined, true).started,
      subscribe: (runId, listener) => runs.events.subscribe({ runId }, listener),
      check: (tool, args) => deps.registry.check(tool, args),
    }),
    ...memoryChannels(store, now),
    ...mcpChannels(deps.mcp),
    ...auditChannels(desks.audit),
    ...planChannels(desks.plans),
  };
}

/** Every stream of the contract. */
export function contractStreams(
  deps: HostDeps,
  runs: HostRuns,
  desks: Desks,
  approvalsBus: ApprovalsBus,
): StreamHandlers {
  return {
    'run.events': (input, listener) => runs.events.subscribe(input, listener),
    'approvals.changed': (_input, listener) => approvalsBus.subscribe(listener),
    'connections.changed': (_input, listener) =>
      deps.connections.subscribe((connections) => listener({ connections })),
    'sideEffects.changed': (_input, listener) => desks.sideEffects.subscribe(listener),
    'agents.changed': (_input, listener) =>
      deps.agentCatalog.subscribe(() => listener({ type: 'agents.changed' })),
  };
}
