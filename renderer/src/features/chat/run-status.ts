import type { RunStatus } from '../../../../shared/contract';

const STATUS_LABELS: Record<RunStatus, string> = {
  queued: 'Starting…',
  planning: 'Planning…',
  executing: 'Working…',
  awaiting_confirmation: 'Waiting for your approval',
  completed: 'Done',
  failed: 'Failed',
};

/** The line under a running conversation; a run waiting behind the cap on runs at once says for how many. */
export function runStatusText(status: RunStatus, queuePosition?: number): string {
  if (status !== 'queued' || queuePosition === undefined) return STATUS_LABELS[status];
  const runs = queuePosition === 1 ? '1 other run' : `${queuePosition} other runs`;
  return `Queued — waiting for ${runs} to finish`;
}
