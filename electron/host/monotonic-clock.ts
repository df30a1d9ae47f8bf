/**
 * A clock that never repeats or goes back: records written in one millisecond still sort in the order
 * they happened, which is how a thread interleaves its messages and tool calls.
 */
export function monotonicClock(source: () => Date = () => new Date()): () => Date {
  let last = 0;
  return () => {
    const now = source().getTime();
    last = now > last ? now : last + 1;
    return new Date(last);
  };
}
