import type { z } from 'zod';
import type { ErrorBody } from './errors';
import { RunCancelInput, RunCancelOutput, RunRequest, RunStarted } from './run';
import { RunEvent, RunEventsFilter } from './events';
import {
  ThreadDetail,
  ThreadGetInput,
  ThreadsSearchInput,
  ThreadsSearchOutput,
  ThreadRenameInput,
  ThreadsListInput,
  ThreadsListOutput,
  ThreadSummary,
} from './threads';
import { ContextClearInput, ContextStatsInput, ContextStatsOutput } from './context';
import { Settings, SettingsGetInput, SettingsPatch } from './settings';
import { ModelsListInput, ModelsListOutput, UsageDailyInput, UsageDailyOutput } from './usage';
import { TasksChangeInput, TasksChangeOutput, TasksListInput, TasksListOutput } from './tasks';
import {
  ApprovalDecideInput,
  ApprovalDecideOutput,
  ApprovalEditInput,
  ApprovalListInput,
  ApprovalListOutput,
  ApprovalsChangedEvent,
  ApprovalsChangedFilter,
} from './approvals';
import {
  ConnectionsChangedEvent,
  ConnectionsChangedFilter,
  ConnectionsConnectInput,
  ConnectionsConnectOutput,
  ConnectionsDisconnectInput,
  ConnectionsDisconnectOutput,
  ConnectionsListInput,
  ConnectionsListOutput,
} from './connections';
import {
  DataCompactInput,
  DataCompactOutput,
  DataStatsInput,
  DataStatsOutput,
  ThreadDeleteInput,
  ThreadDeleteOutput,
  ThreadsExportInput,
  ThreadsExportOutput,
  TasksAndMemoriesExportInput,
  TasksAndMemoriesExportOutput,
  ThreadsPruneInput,
  ThreadsPruneOutput,
} from './data';
import {
  McpDeleteOutput,
  McpImportInput,
  McpImportOutput,
  McpListInput,
  McpListOutput,
  McpLogOutput,
  McpNameInput,
  McpPutInput,
  McpServerOutput,
} from './mcp';
import {
  AuditAssumptionsOutput,
  AuditChainInput,
  AuditChainOutput,
  AuditExportInput,
  AuditExportOutput,
  AuditGetInput,
  AuditGetOutput,
  AuditListInput,
  AuditListOutput,
  AuditUndoInput,
  AuditUndoOutput,
  AuditVerifyInput,
  AuditVerifyOutput,
} from './audit';
import { PlanContinueInput, PlanGetInput, PlanOutput } from './plans';
import {
  DecisionListInput,
  DecisionListOutput,
  ToolInvocationListInput,
  ToolInvocationListOutput,
} from './decision-logs';
import {
  SideEffectsChangedEvent,
  SideEffectsChangedFilter,
  SideEffectsGetInput,
  SideEffectsSetInput,
  SideEffectsState,
} from './side-effects';
import {
  AgentGetInput,
  AgentGetOutput,
  AgentImportInput,
  AgentImportOutput,
  AgentRunInput,
  AgentSetEnabledInput,
  AgentsChangedEvent,
  AgentsChangedFilter,
  AgentsListInput,
  AgentsListOutput,
  ArtifactGetInput,
  ArtifactGetOutput,
  ArtifactsListInput,
  ArtifactsListOutput,
  RunLineageInput,
  RunLineageOutput,
} from './agents';
import {
  MemoryDeleteInput,
  MemoryDeleteOutput,
  MemoryListInput,
  MemoryListOutput,
  MemoryUpdateInput,
  MemoryUpdateOutput,
} from './memory';

export * from './agents';
export * from './approvals';
export * from './audit';
export * from './decision-logs';
export * from './connections';
export * from './context';
export * from './data';
export * from './errors';
export * from './events';
export * from './limits';
export * from './intent';
export * from './mcp';
export * from './memory';
export * from './plans';
export * from './policy';
export * from './run';
export * from './settings';
export * from './side-effects';
export * from './threads';
export * from './usage';
export * from './tasks';

/**
 * The one channel map. Each transport (IPC, WebSocket) and the renderer's client are generated from it,
 * so adding a channel is one entry here plus its handler in the Host.
 */
export const commands = {
  'run.start': { input: RunRequest, output: RunStarted },
  'run.cancel': { input: RunCancelInput, output: RunCancelOutput },
  'threads.list': { input: ThreadsListInput, output: ThreadsListOutput },
  'thread.get': { input: ThreadGetInput, output: ThreadDetail },
  'threads.search': { input: ThreadsSearchInput, output: ThreadsSearchOutput },
  'thread.delete': { input: ThreadDeleteInput, output: ThreadDeleteOutput },
  'thread.rename': { input: ThreadRenameInput, output: ThreadSummary },
  'threads.prune': { input: ThreadsPruneInput, output: ThreadsPruneOutput },
  'threads.export': { input: ThreadsExportInput, output: ThreadsExportOutput },
  'data.stats': { input: DataStatsInput, output: DataStatsOutput },
  'data.compact': { input: DataCompactInput, output: DataCompactOutput },
  'context.stats': { input: ContextStatsInput, output: ContextStatsOutput },
  'context.clear': { input: ContextClearInput, output: ContextStatsOutput },
  'settings.get': { input: SettingsGetInput, output: Settings },
  'settings.set': { input: SettingsPatch, output: Settings },
  'models.list': { input: ModelsListInput, output: ModelsListOutput },
  'usage.daily': { input: UsageDailyInput, output: UsageDailyOutput },
  'tasks.list': { input: TasksListInput, output: TasksListOutput },
  'tasks.change': { input: TasksChangeInput, output: TasksChangeOutput },
  'tasksAndMemories.export': { input: TasksAndMemoriesExportInput, output: TasksAndMemoriesExportOutput },
  'sideEffects.get': { input: SideEffectsGetInput, output: SideEffectsState },
  'sideEffects.set': { input: SideEffectsSetInput, output: SideEffectsState },
  'approval.list': { input: ApprovalListInput, output: ApprovalListOutput },
  'approval.decide': { input: ApprovalDecideInput, output: ApprovalDecideOutput },
  'approval.edit': { input: ApprovalEditInput, output: ApprovalDecideOutput },
  'connections.list': { input: ConnectionsListInput, output: ConnectionsListOutput },
  'connections.connect': { input: ConnectionsConnectInput, output: ConnectionsConnectOutput },
  'connections.disconnect': { input: ConnectionsDisconnectInput, output: ConnectionsDisconnectOutput },
  'memory.list': { input: MemoryListInput, output: MemoryListOutput },
  'memory.update': { input: MemoryUpdateInput, output: MemoryUpdateOutput },
  'memory.delete': { input: MemoryDeleteInput, output: MemoryDeleteOutput },
  'mcp.list': { input: McpListInput, output: McpListOutput },
  'mcp.put': { input: McpPutInput, output: McpServerOutput },
  'mcp.delete': { input: McpNameInput, output: McpDeleteOutput },
  'mcp.restart': { input: McpNameInput, output: McpServerOutput },
  'mcp.log': { input: McpNameInput, output: McpLogOutput },
  'mcp.import': { input: McpImportInput, output: McpImportOutput },
  'audit.list': { input: AuditListInput, output: AuditListOutput },
  'audit.get': { input: AuditGetInput, output: AuditGetOutput },
  'audit.assumptions': { input: AuditGetInput, output: AuditAssumptionsOutput },
  'audit.verifyAssumption': { input: AuditVerifyInput, output: AuditVerifyOutput },
  'audit.undo': { input: AuditUndoInput, output: AuditUndoOutput },
  'audit.export': { input: AuditExportInput, output: AuditExportOutput },
  'audit.verifyChain': { input: AuditChainInput, output: AuditChainOutput },
  'audit.decisions': { input: DecisionListInput, output: DecisionListOutput },
  'audit.toolInvocations': { input: ToolInvocationListInput, output: ToolInvocationListOutput },
  'agents.list': { input: AgentsListInput, output: AgentsListOutput },
  'agents.get': { input: AgentGetInput, output: AgentGetOutput },
  'agents.run': { input: AgentRunInput, output: RunStarted },
  'agents.setEnabled': { input: AgentSetEnabledInput, output: AgentsListOutput },
  'agents.import': { input: AgentImportInput, output: AgentImportOutput },
  'runs.lineage': { input: RunLineageInput, output: RunLineageOutput },
  'artifacts.list': { input: ArtifactsListInput, output: ArtifactsListOutput },
  'artifacts.get': { input: ArtifactGetInput, output: ArtifactGetOutput },
  'plan.get': { input: PlanGetInput, output: PlanOutput },
  'plan.approve': { input: PlanGetInput, output: PlanOutput },
  'plan.continue': { input: PlanContinueInput, output: PlanOutput },
  'plan.cancel': { input: PlanGetInput, output: PlanOutput },
} as const;

export const streams = {
  'run.events': { input: RunEventsFilter, event: RunEvent },
  'approvals.changed': { input: ApprovalsChangedFilter, event: ApprovalsChangedEvent },
  'connections.changed': { input: ConnectionsChangedFilter, event: ConnectionsChangedEvent },
  'sideEffects.changed': { input: SideEffectsChangedFilter, event: SideEffectsChangedEvent },
  'agents.changed': { input: AgentsChangedFilter, event: AgentsChangedEvent },
} as const;

export type CommandName = keyof typeof commands;
export type StreamName = keyof typeof streams;
export type CommandInput<C extends CommandName> = z.input<(typeof commands)[C]['input']>;
export type CommandParsedInput<C extends CommandName> = z.output<(typeof commands)[C]['input']>;
export type CommandOutput<C extends CommandName> = z.output<(typeof commands)[C]['output']>;
export type StreamInput<S extends StreamName> = z.input<(typeof streams)[S]['input']>;
export type StreamParsedInput<S extends StreamName> = z.output<(typeof streams)[S]['input']>;
export type StreamEvent<S extends StreamName> = z.output<(typeof streams)[S]['event']>;

export const commandNames = Object.keys(commands) as CommandName[];
export const streamNames = Object.keys(streams) as StreamName[];

/** What the Host offers each transport: commands take parsed input, streams push events until unsubscribed. */
export interface ContractHost {
  invoke<C extends CommandName>(channel: C, input: CommandParsedInput<C>): Promise<CommandOutput<C>>;
  /** A request for a run refused before it reached the Host (its input did not parse): recorded as a decision. */
  refusedRequest?(error: ErrorBody): void;
  subscribe<S extends StreamName>(
    channel: S,
    input: StreamParsedInput<S>,
    listener: (event: StreamEvent<S>) => void,
  ): () => void;
}

/** What the renderer sees, over `window.deputy` or the WebSocket. Inputs are validated on the other side. */
export interface DeputyClient {
  invoke<C extends CommandName>(channel: C, input: CommandInput<C>): Promise<CommandOutput<C>>;
  on<S extends StreamName>(
    channel: S,
    input: StreamInput<S>,
    listener: (event: StreamEvent<S>) => void,
    options?: StreamOptions,
  ): () => void;
}

export interface StreamOptions {
  /**
   * Called each time the host has taken the subscription: once, and again after each reconnect of a WebSocket
   * (which subscribes again). What the host replays on subscribing (a run's past events) has arrived by then.
   */
  onCaughtUp?: () => void;
}
