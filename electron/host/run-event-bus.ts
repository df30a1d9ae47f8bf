import type { RunEvent, RunEventsFilter } from '../../shared/contract';
import { isRunStart } from '../../shared/run-start';

type Listener = (event: RunEvent) => void;

interface Subscription {
  filter: RunEventsFilter;
  listener: Listener;
}

/** How many finished runs keep their events in memory for late subscribers (older ones replay from the store). */
const FINISHED_RUNS_KEPT = 20;

/**
 * Live run events. A subscriber to one run first receives what that run already emitted (so subscribing
 * just after `run.start` misses nothing), then new events as they happen. Those of a run not heard from since the
 * host started come from its journal, without its words; `isWholeReplayOnly` asks for none rather than those.
 */
export class RunEventBus {
  private readonly subscriptions = new Set<Subscription>();
  private readonly buffers = new Map<string, RunEvent[]>();
  private readonly finished: string[] = [];

  /** `isOver`: whether a run has ended (asked only of a run whose events are not held). */
  constructor(
    private readonly replayStored: (runId: string) => RunEvent[],
    private readonly isOver: (runId: string) => boolean = () => false,
  ) {}

  publish(event: RunEvent): void {
    let buffer = this.buffers.get(event.runId);
    if (!buffer) {
      // A word about a run that ended and was let go (an undo's notice, days later) is in its journal already:
      // its subscribers hear it, but held alone it would be all that a late subscriber replayed of the run, and it
      // would never be let go.
      if (!isRunStart(event) && this.isOver(event.runId)) {
        this.deliverAll(event);
        return;
      }
      buffer = [];
      this.buffers.set(event.runId, buffer);
    }
    // A waiting run's place in line changes with every run that leaves it: a late subscriber needs the last. The
    // run's start (queued with no place) stays first, so a replay says it holds the run whole.
    if (isInLine(event) && isInLine(buffer.at(-1))) buffer[buffer.length - 1] = event;
    else buffer.push(event);
    if (event.type === 'result') this.markFinished(event.runId);
    this.deliverAll(event);
  }

  private deliverAll(event: RunEvent): void {
    for (const subscription of this.subscriptions) {
      if (matches(subscription.filter, event)) deliver(subscription.listener, event);
    }
  }

  subscribe(filter: RunEventsFilter, listener: Listener): () => void {
    const subscription = { filter, listener };
    if (filter.runId) {
      const past = this.replayOf(filter.runId, filter.isWholeReplayOnly ?? false);
      for (const event of past) if (matches(filter, event)) deliver(listener, event);
    }
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  get subscriberCount(): number {
    return this.subscriptions.size;
  }

  /** What a new subscriber to one run hears first: all it emitted, or only what is held of it whole from its start. */
  private replayOf(runId: string, isWholeOnly: boolean): RunEvent[] {
    const held = this.buffers.get(runId);
    if (!isWholeOnly) return held ?? this.replayStored(runId);
    return held && isRunStart(held[0]) ? held : [];
  }

  private markFinished(runId: string): void {
    this.finished.push(runId);
    while (this.finished.length > FINISHED_RUNS_KEPT) {
      const oldest = this.finished.shift();
      if (oldest) this.buffers.delete(oldest);
    }
  }
}

function matches(filter: RunEventsFilter, event: RunEvent): boolean {
  if (filter.runId && filter.runId !== event.runId) return false;
  if (filter.threadId && filter.threadId !== event.threadId) return false;
  return true;
}

// One misbehaving subscriber (a closed socket, a throwing renderer callback) must not stop the run or other subscribers.
function deliver(listener: Listener, event: RunEvent): void {
  try {
    listener(event);
  } catch {
    // The transport that owns the listener notices its own failure and unsubscribes.
  }
}

const isInLine = (event: RunEvent | undefined): boolean =>
  event?.type === 'status' && event.status === 'queued' && event.queuePosition !== undefined;
