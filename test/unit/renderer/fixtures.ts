import type {
  AuditEntry,
  Approval,
  CommandInput,
  CommandName,
  CommandOutput,
  DeputyClient,
  RunResponse,
  Settings,
  StreamEvent,
  StreamInput,
  StreamName,
  ThreadDetail,
} from '../../../shared/contract';
import { DEFAULT_AUTONOMY } from '../../../shared/contract';
import { ClientError } from '../../../renderer/src/api/client-error';

/** A message of thread t1, as thread.get answers it. */
export const storedMessage = (
  id: string,
  runId: string,
  role: 'user' | 'assistant',
  text: string,
  at: string,
): ThreadDetail['messages'][number] => ({ id, threadId: 't1', runId, role, text, createdAt: at });

/** A run of thread t1 that ended at `at`, as thread.get answers it. */
export const storedRun = (
  id: string,
  status: 'failed' | 'completed',
  at: string,
  summary: string | null = null,
): ThreadDetail['runs'][number] => ({
  id,
  threadId: 't1',
  status,
  model: 'm',
  summary,
  errorCode: status === 'failed' ? 'model_server_error' : null,
  errorMessage: status === 'failed' ? 'Gemini had a problem.' : null,
  createdAt: at,
  updatedAt: at,
});

export const sampleSettings = (overrides: Partial<Settings> = {}): Settings => ({
  model: 'gemini-2.5-flash',
  timezone: 'Europe/Paris',
  userName: 'Ada',
  userEmail: 'ada@example.com',
  preferences: '',
  maxLoopSteps: 8,
  isGeminiConfigured: true,
  trustLevel: 'supervised',
  autonomy: { ...DEFAULT_AUTONOMY },
  allowlist: [],
  rules: [],
  approvalExpiryMinutes: 60,
  requireApprovalForFirstContact: true,
  rateLimits: { actionsPerMinute: 10, externalCallsPerHour: 50, modelTokensPerHour: 100_000 },
  executionPolicy: 'batch',
  maxParallel: 4,
  maxConcurrentRuns: 4,
  routingPolicy: 'quality',
  showThinking: false,
  runTimeLimitMinutes: 15,
  embedRecentMail: false,
  modelPrices: { 'gemini-2.5-flash': { input: 0.3, output: 2.5 } },
  areSideEffectsEnabled: true,
  areSideEffectsPaused: false,
  ...overrides,
});

export const sampleApproval = (overrides: Partial<Approval> = {}): Approval => ({
  id: 'ap1',
  runId: 'r1',
  threadId: 't1',
  actionId: 'a1',
  tool: 'add_task',
  args: { description: 'Buy milk' },
  fingerprint: 'fp1',
  status: 'pending',
  level: 'confirm',
  reason: 'Supervised: every action waits for your approval.',
  rule: 'trust:supervised',
  risk: 'low',
  preview: { title: 'Add a task', fields: [{ label: 'Description', value: 'Buy milk' }] },
  previewText: 'Add a task: Buy milk',
  intent: 'add task',
  reasoning: 'user asked',
  confidence: 0.95,
  assumptions: [],
  alwaysAllowScopes: [],
  argsSchema: {
    type: 'object',
    properties: { description: { type: 'string' }, due: { type: 'string' } },
    required: ['description'],
  },
  createdAt: '2026-11-21T10:00:00.000Z',
  expiresAt: '2026-11-21T11:00:00.000Z',
  decidedAt: null,
  decisionNote: null,
  ...overrides,
});

/** The entry of an undo of `original` being made now: let through by the rules, not done yet. */
export const undoUnderWay = (original: AuditEntry): AuditEntry => ({
  ...original,
  id: `${original.id}-undo`,
  kind: 'undo',
  status: 'pending',
  authority: {
    decision: 'allow',
    rule: 'autonomy:auto',
    reason: null,
    approvedBy: 'person',
    approvedAt: null,
  },
  undo: { isReversible: false, whyNot: null, undoOf: original.id, undoneBy: null },
});

export const sampleResponse = (overrides: Partial<RunResponse> = {}): RunResponse => ({
  ok: true,
  runId: 'r1',
  actionId: 'a1',
  threadId: 't1',
  status: 'completed',
  summary: '',
  mode: 'assistant_text',
  model: 'gemini-2.5-flash',
  ...overrides,
});

type Handlers = { [C in CommandName]?: (input: CommandInput<C>) => Promise<CommandOutput<C>> };

/** A client whose commands answer from the given handlers and whose streams the test drives. */
export function fakeClient(handlers: Handlers = {}) {
  const listeners = new Map<StreamName, Set<(event: unknown) => void>>();
  const calls: { channel: CommandName; input: unknown }[] = [];
  const client: DeputyClient = {
    invoke: <C extends CommandName>(channel: C, input: CommandInput<C>) => {
      calls.push({ channel, input });
      const handler = handlers[channel] as
        ((input: CommandInput<C>) => Promise<CommandOutput<C>>) | undefined;
      return handler ? handler(input) : Promise.reject(new ClientError('unknown_channel', channel));
    },
    on: <S extends StreamName>(
      channel: S,
      _input: StreamInput<S>,
      listener: (event: StreamEvent<S>) => void,
    ) => {
      const set = listeners.get(channel) ?? new Set();
      const deliver = (event: unknown) => listener(event as StreamEvent<S>);
      set.add(deliver);
      listeners.set(channel, set);
      return () => set.delete(deliver);
    },
  };
  const emit = <S extends StreamName>(channel: S, event: StreamEvent<S>) => {
    for (const deliver of listeners.get(channel) ?? []) deliver(event);
  };
  return { client, calls, emit, subscribers: (channel: StreamName) => listeners.get(channel)?.size ?? 0 };
}
