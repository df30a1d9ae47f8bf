import {
  type CommandName,
  type CommandOutput,
  type CommandParsedInput,
  DeputyError,
  notFound,
  quoteId,
} from '../../shared/contract';
import type { AgentCatalog, LoadedAgent } from '../agents/catalog';
import { mistakeCount, mistakesOf, type AgentParseFailure } from '../agents/load';
import type { Store } from '../store/store';
import { RESERVED_TOOL_NAMES, type ToolRegistry } from '../tools/registry';
import type { AgentsDesk } from './agents-desk';

type AgentChannel =
  | 'agents.list'
  | 'agents.get'
  | 'agents.run'
  | 'agents.setEnabled'
  | 'agents.import'
  | 'runs.lineage'
  | 'artifacts.list'
  | 'artifacts.get';
type Handlers = {
  [C in AgentChannel]: (input: CommandParsedInput<C>) => CommandOutput<C>;
};

/** The agents domain's slice of the contract: the catalog, running, lineage and artifacts. */
export function agentHandlers(
  desk: AgentsDesk,
  catalog: AgentCatalog,
  registry: ToolRegistry,
  store: Store,
): Handlers & Partial<Record<CommandName, unknown>> {
  // Control tools (complete_task…) are every agent's, so a file that lists one names a tool Deputy has.
  const knownTools = () => new Set([...registry.list().map((tool) => tool.name), ...RESERVED_TOOL_NAMES]);
  const summary = (agent: LoadedAgent, tools = knownTools()) => catalog.summary(agent, tools);
  const list = (): CommandOutput<'agents.list'> => {
    const tools = knownTools();
    return {
      agents: catalog.all().map((agent) => summary(agent, tools)),
      errors: catalog.loadErrors(),
      // Named within the data folder: local paths are internals the API does not show.
      folder: 'agents',
    };
  };
  const known = (name: string) => {
    const agent = catalog.get(name);
    if (!agent) throw new DeputyError('not_found', `There is no agent named ${quoteId(name)}.`);
    return agent;
  };
  return {
    'agents.list': list,
    'agents.get': (input) => {
      const agent = known(input.name);
      return { agent: summary(agent), definition: { ...agent.definition } };
    },
    'agents.run': (input) => desk.start(input).started,
    'agents.setEnabled': (input) => {
      known(input.name);
      catalog.setEnabled(input.name, input.enabled);
      return list();
    },
    'agents.import': (input) => {
      const tools = new Set(registry.list().map((tool) => tool.name));
      const imported = catalog.importFile(input.fileName, input.text, tools);
      if (!imported.ok) {
        throw new DeputyError('invalid_input', importMistakes(imported));
      }
      return { agent: summary(imported.agent), droppedTools: imported.droppedTools };
    },
    'runs.lineage': (input) => desk.lineage(input.runId),
    'artifacts.list': (input) => {
      if (!store.runs.get(input.runId)) throw notFound('run', input.runId);
      return { artifacts: store.artifacts.byRun(input.runId) };
    },
    'artifacts.get': (input) => {
      const artifact = store.artifacts.get(input.id);
      if (!artifact) throw notFound('artifact', input.id);
      return { artifact };
    },
  };
}

/**
 * Why an imported file was refused: its one mistake with its line, or each of several, line by line (counted
 * whole: the line saying how many more are not listed is not one of them).
 */
function importMistakes(failure: AgentParseFailure): string {
  const count = mistakeCount(failure);
  const { error: only } = failure;
  if (count === 1) return `${only.message}${only.line ? ` (line ${only.line})` : ''}`;
  const each = mistakesOf(failure).map((mistake) =>
    mistake.line ? `Line ${mistake.line}: ${mistake.message}` : mistake.message,
  );
  return `This file has ${count.toString()} mistakes. ${each.join(' ')}`;
}
