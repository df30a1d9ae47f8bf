import { redactError } from '../vault/redactor';

/**
 * The last line of defence: an exception or rejection that escapes every handler (a timer, a stream's
 * error event, a library callback) is logged, redacted, and the host keeps serving. Each request already
 * has its own guard; this is for what has no request around it. Returns a function that removes it.
 */
export function installProcessGuard(log: (line: string) => void = (line) => console.error(line)): () => void {
  // The guard itself must never throw: an exception thrown here ends the process (exit code 7).
  const describe = (error: unknown): string => {
    try {
      return redactError(error);
    } catch {
      return 'an error that could not be described safely';
    }
  };
  const say = (line: string): void => {
    try {
      log(line);
    } catch {
      // Nowhere left to say it; the host keeps serving.
    }
  };
  const onException = (error: unknown): void =>
    say(`[deputy] an error escaped every handler: ${describe(error)}`);
  const onRejection = (reason: unknown): void =>
    say(`[deputy] a promise was rejected and nothing handled it: ${describe(reason)}`);
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
