import type {
  CommandName,
  CommandOutput,
  CommandParsedInput,
  StreamEvent,
  StreamName,
  StreamParsedInput,
} from '../../../shared/contract';

/** One domain's slice of the contract's commands: each channel it owns, answered (or rejected) in its terms. */
export type HandlersFor<C extends CommandName> = {
  [K in C]: (input: CommandParsedInput<K>) => Promise<CommandOutput<K>> | CommandOutput<K>;
};

/** Every stream of the contract: a listener is subscribed, and the function returned unsubscribes it. */
export type StreamHandlers = {
  [S in StreamName]: (input: StreamParsedInput<S>, listener: (event: StreamEvent<S>) => void) => () => void;
};
