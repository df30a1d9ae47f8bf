/**
 * Runs take turns on the main thread. A run's step is synchronous work (the ledger, the tool, the audit entry,
 * the journal) between two waits; when twenty model answers arrive at once, their steps would all run in one
 * turn of the event loop, and the window, the API and the approval notifications would wait for all of them.
 *
 * So before a step, a run asks for a turn: while the current turn of the loop is young (under `SLICE_MS`) and
 * no run is waiting, it goes on at once. Otherwise it waits in line, and the line lets one run go per turn of
 * the loop, oldest first, with timers and I/O (the person's clicks) in between.
 */
const SLICE_MS = 4;

const waiting: (() => void)[] = [];
let isDraining = false;
let isMarkScheduled = false;
/** When the loop last came round to its check phase (where `setImmediate` callbacks run). */
let turnedAt = performance.now();

/** What keeps a step's unit of work open while its run waits for a turn (the store's `WriteUnit`). */
interface TurnWaiter {
  waitTurn(turn: Promise<void>): Promise<void>;
}

/**
 * Waits for the run's turn on the main thread, if it must, without committing the step early: the step's
 * writes stay in the open unit and are committed at its own boundary.
 */
export function takeTurn(writes: TurnWaiter): Promise<void> | undefined {
  const turn = fairTurn();
  return turn && writes.waitTurn(turn);
}

/** Resolves when it is this run's turn: at once, or after the runs already waiting, one per loop turn. */
export function fairTurn(): Promise<void> | undefined {
  if (waiting.length === 0 && performance.now() - turnedAt < SLICE_MS) {
    markWhenLoopTurns();
    return undefined;
  }
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (isDraining) return;
    isDraining = true;
    setImmediate(letOneGo);
  });
}

function letOneGo(): void {
  turnedAt = performance.now();
  const next = waiting.shift();
  // Scheduled from inside the check phase, the next one runs on the loop's next turn, after timers and I/O.
  if (waiting.length > 0) setImmediate(letOneGo);
  else isDraining = false;
  next?.();
}

function markWhenLoopTurns(): void {
  if (isMarkScheduled) return;
  isMarkScheduled = true;
  setImmediate(() => {
    isMarkScheduled = false;
    turnedAt = performance.now();
  });
}
