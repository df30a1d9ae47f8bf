import {
  MAX_CONCURRENT_RUNS,
  type ExecutionPolicy,
  type RoutingPolicy,
  type Settings,
  type SettingsPatch,
} from '../../../../shared/contract';
import { wholeNumber, type Checked } from './permissions';

/** The General tab's "Runs" group: how a run takes its actions, its models and its time. */

interface Choice<T> {
  value: T;
  label: string;
  explanation: string;
}

export const EXECUTION_POLICIES: Choice<ExecutionPolicy>[] = [
  {
    value: 'interactive',
    label: 'One at a time',
    explanation: 'Each step takes a single action, so everything Deputy does is easy to follow.',
  },
  {
    value: 'batch',
    label: 'Several at once',
    explanation:
      'Actions of one step that do not depend on each other run together; an approval holds only the actions that need it.',
  },
];

export const ROUTING_POLICIES: Choice<RoutingPolicy>[] = [
  {
    value: 'quality',
    label: 'Best quality',
    explanation: 'Each step uses the most capable model, even when it is slower or costs more.',
  },
  { value: 'cost', label: 'Lowest cost', explanation: 'Each step uses the cheapest model that can do it.' },
  {
    value: 'latency',
    label: 'Fastest',
    explanation: 'Each step uses the quickest model, for short answers sooner.',
  },
];

// The contract's bounds (shared/contract/settings.ts), repeated here for the fields' hints and checks.
export const MAX_PARALLEL = { min: 1, max: 8 } as const;
export const RUN_TIME_LIMIT_MINUTES = { min: 1, max: 24 * 60 } as const;

/** The group's fields as typed: numbers stay text until saving, so a half-typed number is not lost. */
export interface RunValues {
  executionPolicy: ExecutionPolicy;
  maxParallel: string;
  routingPolicy: RoutingPolicy;
  runTimeLimitMinutes: string;
  maxConcurrentRuns: string;
  showThinking: boolean;
}

export const toRunValues = (settings: Settings): RunValues => ({
  executionPolicy: settings.executionPolicy,
  maxParallel: String(settings.maxParallel),
  routingPolicy: settings.routingPolicy,
  runTimeLimitMinutes: String(settings.runTimeLimitMinutes),
  maxConcurrentRuns: String(settings.maxConcurrentRuns),
  showThinking: settings.showThinking,
});

export const explanationOf = <T>(choices: readonly Choice<T>[], value: T): string =>
  choices.find((choice) => choice.value === value)?.explanation ?? '';

/**
 * Only what changed. The number of actions at once is hidden, and so neither checked nor sent, while actions run
 * one at a time: whatever is left in it then does not block saving.
 */
export function runsPatch(settings: Settings, values: RunValues): Checked<SettingsPatch> {
  const isBatch = values.executionPolicy === 'batch';
  const parallel = isBatch
    ? wholeNumber(values.maxParallel, 'Actions at once', MAX_PARALLEL.min, MAX_PARALLEL.max)
    : null;
  if (parallel && !parallel.ok) return parallel;
  const limit = wholeNumber(
    values.runTimeLimitMinutes,
    'Run time limit (minutes)',
    RUN_TIME_LIMIT_MINUTES.min,
    RUN_TIME_LIMIT_MINUTES.max,
  );
  if (!limit.ok) return limit;
  const runsAtOnce = wholeNumber(
    values.maxConcurrentRuns,
    'Runs at once',
    MAX_CONCURRENT_RUNS.min,
    MAX_CONCURRENT_RUNS.max,
  );
  if (!runsAtOnce.ok) return runsAtOnce;
  return {
    ok: true,
    value: {
      ...(values.executionPolicy !== settings.executionPolicy && { executionPolicy: values.executionPolicy }),
      ...(parallel && parallel.value !== settings.maxParallel && { maxParallel: parallel.value }),
      ...(values.routingPolicy !== settings.routingPolicy && { routingPolicy: values.routingPolicy }),
      ...(limit.value !== settings.runTimeLimitMinutes && { runTimeLimitMinutes: limit.value }),
      ...(runsAtOnce.value !== settings.maxConcurrentRuns && { maxConcurrentRuns: runsAtOnce.value }),
      ...(values.showThinking !== settings.showThinking && { showThinking: values.showThinking }),
    },
  };
}
