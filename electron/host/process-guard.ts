import { redactError } from '../vault/redactor';

/**
 * The last line of defence: an exception or rejection that escapes every handler (a timer, a stream's
 * error event, a library callback) is logged, redacted, and the host keeps serving. Each request already
 * has its own guard; this is for what has no request around it. Returns a function that removes it.
 */
export function installProcessGuard(log: (line: string) => void = (line) => console.error(line)): () => void {
  const onException = (error: unknown): void =>
    log(`[deputy] an error escaped every handler: ${redactError(error)}`);
  const onRejection = (reason: unknown): void =>
    log(`[deputy] a promise was rejected and nothing handled it: ${redactError(reason)}`);
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
