import { statSync } from 'node:fs';
import { join } from 'node:path';
import { importPeer } from './install';
import { STEPS, StepClock, TOOL_RESULT, toolArgs } from './workload';

// The peers are loaded at run time from the scratch folder, so only the few shapes used here are named.
type Ctor<T = object> = new (...args: never[]) => T;
interface Graph {
  invoke(input: unknown, config: unknown): Promise<unknown>;
}
interface Builder {
  addNode(name: string, node: unknown): Builder;
  addEdge(from: string, to: string): Builder;
  addConditionalEdges(from: string, condition: unknown, map?: unknown): Builder;
  compile(options: { checkpointer: unknown }): Graph;
}
interface Saver {
  db: { pragma(text: string): unknown; close(): void };
}

/** LangGraph JS with its SQLite checkpointer: an agent node (the scripted model) and a ToolNode, looped. */
export async function benchLangGraph(
  dir: string,
  dataDir: string,
  runs: number,
  warmUp: number,
): Promise<{ samples: number[]; bytesPerRun: number }> {
  const graphs = await importPeer(dir, '@langchain/langgraph');
  const prebuilt = await importPeer(dir, '@langchain/langgraph/prebuilt');
  const sqlite = await importPeer(dir, '@langchain/langgraph-checkpoint-sqlite');
  const messages = await importPeer(dir, '@langchain/core/messages');
  const tools = await importPeer(dir, '@langchain/core/tools');
  const { z } = (await importPeer(dir, 'zod')) as {
    z: { object(shape: unknown): unknown; string(): unknown };
  };

  const StateGraph = graphs.StateGraph as Ctor<Builder>;
  const MessagesAnnotation = graphs.MessagesAnnotation;
  const ToolNode = prebuilt.ToolNode as Ctor;
  const toolsCondition = prebuilt.toolsCondition;
  const AIMessage = messages.AIMessage as Ctor;
  const SqliteSaver = sqlite.SqliteSaver as { fromConnString(path: string): Saver };
  const makeTool = tools.tool as (fn: (input: unknown) => Promise<string>, options: unknown) => unknown;

  const clock = new StepClock();
  let turn = 0;
  const listTasks = makeTool(async () => JSON.stringify(TOOL_RESULT), {
    name: 'list_tasks',
    description: "List the user's tasks, optionally filtered by words.",
    schema: z.object({ query: z.string() }),
  });
  const agent = async (): Promise<{ messages: unknown[] }> => {
    clock.tick();
    turn += 1;
    if (turn > STEPS) return { messages: [new AIMessage({ content: 'Done.' } as never)] };
    const call = { id: `c${turn}`, name: 'list_tasks', args: toolArgs(turn), type: 'tool_call' };
    return { messages: [new AIMessage({ content: '', tool_calls: [call] } as never)] };
  };

  const file = join(dataDir, 'langgraph.db');
  const saver = SqliteSaver.fromConnString(file);
  const graph = new StateGraph(MessagesAnnotation as never)
    .addNode('agent', agent)
    .addNode('tools', new ToolNode([listTasks] as never))
    .addEdge('__start__', 'agent')
    .addConditionalEdges('agent', toolsCondition)
    .addEdge('tools', 'agent')
    .compile({ checkpointer: saver });

  let bytesBefore = 0;
  for (let run = 0; run < runs + warmUp; run += 1) {
    if (run === warmUp) bytesBefore = sizeOf(saver, file);
    turn = 0;
    await graph.invoke(
      { messages: [{ role: 'user', content: 'Add the follow-up tasks.' }] },
      { configurable: { thread_id: `bench-${run}` }, recursionLimit: 4 * STEPS + 10 },
    );
    clock.endRun(run >= warmUp);
  }
  const bytesPerRun = (sizeOf(saver, file) - bytesBefore) / runs;
  saver.db.close();
  return { samples: clock.samples, bytesPerRun };
}

/** The database's size with its write-ahead log folded in. */
function sizeOf(saver: Saver, file: string): number {
  saver.db.pragma('wal_checkpoint(TRUNCATE)');
  return statSync(file).size;
}
