/**
 * A point a scripted stream stops at until the test lets it go on, so a test can do something (cut a socket,
 * press Stop) at a known place in an answer rather than racing its timing.
 */
export interface StreamHold {
  /** Settles once a stream has sent everything before the held chunk and is waiting. */
  readonly reached: Promise<void>;
  /** Lets the held stream go on; a stream that reaches the hold after this goes straight on. */
  release(): void;
  /** Called by the fake as its stream reaches the hold; settles on `release()`. */
  wait(): Promise<void>;
}

export function streamHold(): StreamHold {
  let arrive: () => void = () => undefined;
  let release: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    reached,
    release: () => release(),
    wait: () => {
      arrive();
      return released;
    },
  };
}
