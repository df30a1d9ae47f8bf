import { z } from 'zod';

/** Agents (spec 001), their lineage and artifacts (Keep-Up §8.3–8.4), as the UI and the API see them. */

const Name = z.string().trim().min(1).max(100);
const Id = z.string().min(1).max(200);

export const AgentInputView = z.object({
  name: z.string(),
  description: z.string(),
  type: z.enum(['string', 'number', 'integer', 'boolean']),
  required: z.boolean(),
});
export type AgentInputView = z.infer<typeof AgentInputView>;

export const AgentSummary = z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  source: z.enum(['builtin', 'user']),
  /** `built-in/<file>` or `agents/<file>` (in the data folder): never a local path. */
  file: z.string(),
  enabled: z.boolean(),
  inputs: z.array(AgentInputView),
  outputName: z.string(),
  tools: z.array(z.string()),
  /**
   * Tools the file lists that Deputy has none of right now: a typo, or an extension's tool not connected yet.
   * The agent loads and works without them (one that appears later is granted then).
   */
  unknownTools: z.array(z.string()),
  /** The SOP's phases in order, each with the tools it allows (empty: no SOP). */
  phases: z.array(z.object({ name: z.string(), allowedTools: z.array(z.string()) })),
  /**
   * A built-in agent whose name a file of the person's gives too: a sentence naming that file, which is not used
   * (it is listed with the files that did not load). Absent otherwise.
   */
  sameName: z.string().optional(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;

/** A definition file that was skipped, and why: file and 1-based line when known. */
export const AgentLoadErrorView = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  message: z.string(),
});
export type AgentLoadErrorView = z.infer<typeof AgentLoadErrorView>;

export const AgentsListInput = z.object({}).strict();
export const AgentsListOutput = z.object({
  agents: z.array(AgentSummary),
  errors: z.array(AgentLoadErrorView),
  /** Where the person's own definitions live (watched), within Deputy's data folder. */
  folder: z.string(),
});

/**
 * The agents changed: a file in the agents folder was saved, added or removed, an agent was turned on or off, or
 * one was imported; or the tools Deputy has changed (an extension connected, listed other tools, or was turned off
 * or removed), so an agent's `unknownTools` may be other ones. Read `agents.list` again for what they are now.
 */
export const AgentsChangedFilter = z.object({}).strict().default({});
export const AgentsChangedEvent = z.object({ type: z.literal('agents.changed') });
export type AgentsChangedEvent = z.infer<typeof AgentsChangedEvent>;

export const AgentGetInput = z.object({ name: Name }).strict();
export const AgentGetOutput = z.object({
  agent: AgentSummary,
  /** The whole definition, camelCase (spec 001). */
  definition: z.record(z.string(), z.unknown()),
});

export const AgentInputs = z.record(
  z.string().max(100),
  z.union([z.string().max(20_000), z.number(), z.boolean()]),
);
export const AgentRunInput = z
  .object({
    name: Name,
    inputs: AgentInputs.default({}),
    threadId: z.string().min(1).max(100).optional(),
  })
  .strict();
export type AgentRunInput = z.infer<typeof AgentRunInput>;

export const AgentSetEnabledInput = z.object({ name: Name, enabled: z.boolean() }).strict();

export const AgentImportInput = z
  .object({
    fileName: z.string().trim().min(1).max(200),
    /** A Gemini CLI subagent (Markdown with YAML front matter), or a definition in YAML or JSON. */
    text: z.string().min(1).max(200_000),
  })
  .strict();
export const AgentImportOutput = z.object({
  agent: AgentSummary,
  /** Tools the imported file named that Deputy does not have; they were left out. */
  droppedTools: z.array(z.string()),
});

export const Usage = z.object({ inputTokens: z.number(), outputTokens: z.number(), cost: z.number() });

export const LineageNode = z.object({
  id: z.string(),
  runId: z.string(),
  parentRunId: z.string().nullable(),
  parentAgentId: z.string().nullable(),
  /** The parent's call (a ledger action) that started this run: where the UI nests it. */
  parentActionId: z.string().nullable(),
  role: z.string(),
  status: z.enum(['active', 'completed', 'failed', 'recovering']),
  depth: z.number().int(),
  grantedTools: z.array(z.string()),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  usage: Usage,
  /** Its own usage plus every descendant's (Keep-Up §5.4: child usage rolls up to the parent). */
  rolledUp: Usage,
});
export type LineageNode = z.infer<typeof LineageNode>;

export const RunLineageInput = z.object({ runId: Id }).strict();
export const RunLineageOutput = z.object({
  runId: z.string(),
  /** The agent runs under this run (itself first when it is an agent run), parents before children. */
  nodes: z.array(LineageNode),
  total: Usage,
});

export const ArtifactType = z.enum(['file', 'plan', 'report', 'draft', 'diagram']);
export const Artifact = z.object({
  id: z.string(),
  runId: z.string(),
  agentId: z.string(),
  sourceRunId: z.string().nullable(),
  checkpointId: z.string().nullable(),
  type: ArtifactType,
  path: z.string().nullable(),
  content: z.string().nullable(),
  metadata: z.object({ size: z.number().int(), hash: z.string(), mimeType: z.string() }),
  createdAt: z.string(),
});
export type Artifact = z.infer<typeof Artifact>;

export const ArtifactsListInput = z.object({ runId: Id }).strict();
export const ArtifactsListOutput = z.object({ artifacts: z.array(Artifact) });
export const ArtifactGetInput = z.object({ id: Id }).strict();
export const ArtifactGetOutput = z.object({ artifact: Artifact });
