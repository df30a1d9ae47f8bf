import type { Memory } from '../../shared/contract';
import type { SemanticSearch } from '../context/semantic-index';
import { aboutTheUser, type UserProfile } from '../engine/system-instruction';
import { standingInstruction } from '../policy/standing-instruction';
import type { MemoriesRepo } from '../store/memories-repo';
import { redactSecrets } from '../vault/redactor';

/** How many memories go into the [ABOUT THE USER] block. */
export const RELEVANT_MEMORIES = 5;
/** How long the prompt's embedding may take before the run starts with the memories found by words. */
const BY_MEANING_WITHIN_MS = 3_000;
const ABOUT_BLOCK = /\[ABOUT THE USER\][\s\S]*?\[END ABOUT THE USER\]/;

/**
 * A memory the person never confirmed is not presented as their word, and one that reads as an instruction is
 * never presented at all: it would steer every run.
 */
const isPresentable = (memory: Memory): boolean =>
  memory.confirmedAt !== null && standingInstruction(memory.text) === null;

/** The confirmed memories whose words match the prompt: what a run starts with. */
export function memoriesByWords(memories: MemoriesRepo, prompt: string): string[] {
  return memories
    .search(prompt, RELEVANT_MEMORIES * 2)
    .filter(isPresentable)
    .slice(0, RELEVANT_MEMORIES)
    .map((memory) => memory.text);
}

export type MemorySearch = (
  query: string,
  limit: number,
  signal: AbortSignal,
) => Promise<SemanticSearch<Memory>>;

/**
 * The [ABOUT THE USER] block again, with the memories found by meaning and by words (hybrid search), before the
 * run's first model turn. If the prompt cannot be embedded in time, the memories found by words stay, and the
 * block says they were matched by words only. Answers the new system instruction.
 */
export async function aboutTheUserByMeaning(
  search: MemorySearch,
  input: { prompt: string; profile: UserProfile; systemInstruction: string },
  signal: AbortSignal,
): Promise<string> {
  const found = await search(
    input.prompt,
    RELEVANT_MEMORIES * 2,
    AbortSignal.any([signal, AbortSignal.timeout(BY_MEANING_WITHIN_MS)]),
  );
  const texts = found.matches
    .map((match) => match.item)
    .filter(isPresentable)
    .slice(0, RELEVANT_MEMORIES)
    .map((memory) => memory.text);
  const block = redactSecrets(aboutTheUser(input.profile, texts, texts.length > 0 ? found.note : null));
  return input.systemInstruction.replace(ABOUT_BLOCK, () => block);
}
