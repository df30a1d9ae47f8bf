import { redactValue } from '../vault/redactor';
import { checkClientInput } from './client-input';
import type { z } from 'zod';
import {
  commands,
  DeputyError,
  parseInput,
  streams,
  toErrorBody,
  type CommandName,
  type ContractHost,
  type ErrorBody,
  type Result,
  type StreamName,
} from '../../shared/contract';

const isCommand = (channel: unknown): channel is CommandName =>
  typeof channel === 'string' && Object.hasOwn(commands, channel);
const isStream = (channel: unknown): channel is StreamName =>
  typeof channel === 'string' && Object.hasOwn(streams, channel);

/**
 * What every transport does with a command from outside: check the channel exists, parse the input with
 * the channel's schema, call the Host, and turn the outcome into a typed result. Nothing unparsed reaches the Host.
 */
export async function dispatchCommand(
  host: ContractHost,
  channel: unknown,
  input: unknown,
  onUnexpected: (error: unknown) => void = () => {},
): Promise<Result<unknown>> {
  try {
    if (!isCommand(channel))
      throw new DeputyError('unknown_channel', `There is no command named ${String(channel)}.`);
    const schema = commands[channel].input as z.ZodType<unknown>;
    checkClientInput(input);
    const data: unknown = await host.invoke(channel, parseInput(schema, input) as never);
    return { ok: true, data };
  } catch (error) {
    if (!(error instanceof DeputyError)) onUnexpected(error);
    const body = safeErrorBody(error);
    // A run asked for with input that does not parse never becomes a run: its refusal is still a decision.
    if (channel === 'run.start' && REFUSED_INPUT.has(body.code)) host.refusedRequest?.(body);
    return { ok: false, error: body };
  }
}

const REFUSED_INPUT = new Set<string>(['invalid_input', 'payload_too_large']);

/** The same for streams: on success, the caller owns the returned unsubscribe. */
export function openSubscription(
  host: ContractHost,
  channel: unknown,
  input: unknown,
  listener: (event: unknown) => void,
): { ok: true; unsubscribe: () => void } | { ok: false; error: ErrorBody } {
  try {
    if (!isStream(channel))
      throw new DeputyError('unknown_channel', `There is no stream named ${String(channel)}.`);
    const schema = streams[channel].input as z.ZodType<unknown>;
    checkClientInput(input);
    const unsubscribe = host.subscribe(channel, parseInput(schema, input) as never, listener);
    return { ok: true, unsubscribe };
  } catch (error) {
    return { ok: false, error: safeErrorBody(error) };
  }
}

/** The error body a client sees, with any secret a message might carry taken out. */
export function safeErrorBody(error: unknown): ErrorBody {
  return redactValue(toErrorBody(error));
}
