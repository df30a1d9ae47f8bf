import type { ErrorCode } from '../../shared/contract';
import { ModelError, type ModelErrorKind } from '../llm/model-client';

const CODES: Record<ModelErrorKind, ErrorCode> = {
  not_configured: 'model_not_configured',
  key_rejected: 'model_key_rejected',
  unavailable: 'model_unavailable',
  rate_limited: 'model_rate_limited',
  server_error: 'model_server_error',
  timeout: 'model_timeout',
  bad_response: 'model_bad_response',
  blocked: 'model_blocked',
  cancelled: 'cancelled',
};

export interface RunFailure {
  code: ErrorCode;
  message: string;
}

export const modelErrorCode = (kind: ModelErrorKind): ErrorCode => CODES[kind];

/** Turns whatever a model call threw into a code and a sentence a person can act on. */
export function describeModelFailure(error: unknown): RunFailure {
  if (error instanceof ModelError) {
    return { code: CODES[error.kind], message: error.kind === 'cancelled' ? 'Stopped.' : error.message };
  }
  return { code: 'model_bad_response', message: 'Deputy could not read the answer from the model.' };
}
