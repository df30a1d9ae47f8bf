/**
 * What every client call rejects with: the contract's error code (or a transport one such as
 * `disconnected`) and a message a person can read.
 */
export class ClientError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

function hasCode(error: unknown): error is { code: string; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

export function toClientError(error: unknown): ClientError {
  if (error instanceof ClientError) return error;
  if (hasCode(error)) return new ClientError(error.code, error.message);
  if (error instanceof Error) return new ClientError('internal', error.message);
  return new ClientError('internal', 'Something went wrong talking to Deputy.');
}
