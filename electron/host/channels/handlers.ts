import type { CommandName, CommandOutput, CommandParsedInput } from '../../../shared/contract';

/** One domain's slice of the contract's commands: each channel it owns, answered (or rejected) in its terms. */
export type HandlersFor<C extends CommandName> = {
  [K in C]: (input: CommandParsedInput<K>) => Promise<CommandOutput<K>> | CommandOutput<K>;
};
