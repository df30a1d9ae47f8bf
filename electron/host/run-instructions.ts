import type { AttachedContextItem } from '../../shared/contract';
import type { ContextService } from '../context/context-service';
import type { RunSpec } from '../engine/run-deps';
import type { RunState } from '../engine/run-state';
import { buildSystemInstruction, type UserProfile } from '../engine/system-instruction';
import type { Store } from '../store/store';
import { redactSecrets } from '../vault/redactor';
import { aboutTheUserByMeaning, memoriesByWords } from './run-memories';
import type { SettingsService } from './settings';

export interface RunInstructionsDeps {
  store: Store;
  settings: SettingsService;
  context: ContextService;
  now: () => Date;
  logError: (message: string, error: unknown) => void;
}

/** What a chat run is told before its first turn: the rules, the person, their memories and knowledge, the time. */
export class RunInstructions {
  constructor(private readonly deps: RunInstructionsDeps) {}

  /** Whether memories can be found by meaning now (a key and an index); if not, they are found by words only. */
  get isByMeaning(): boolean {
    return !this.deps.context.semantic.whyWordsOnly();
  }

  /**
   * Deputy's instruction for a prompt. Memories are found by words here; a chat run finds them by meaning too
   * just before its first turn (withMemoriesByMeaning).
   */
  for(prompt: string, attachedContext: AttachedContextItem[]): string {
    const memories = this.relevantMemories(prompt);
    // The profile's free text (preferences) is the person's too: redacted like the prompt.
    return redactSecrets(
      buildSystemInstruction({
        now: this.deps.now(),
        profile: this.profile(),
        memories,
        memoryNote: memories.length > 0 ? this.deps.context.semantic.whyWordsOnly() : null,
        attachedContext,
        knowledge: this.deps.context.knowledgeFor(prompt),
      }),
    );
  }

  /**
   * Before the first turn, [ABOUT THE USER] again with memories found by meaning as well (hybrid search), and a
   * checkpoint of it. Any failure keeps the memories found by words: the run never waits long or fails for it.
   */
  async withMemoriesByMeaning(
    spec: RunSpec,
    state: RunState,
    prompt: string,
    checkpoint: (spec: RunSpec, state: RunState) => void,
  ): Promise<void> {
    try {
      const { semantic } = this.deps.context;
      state.systemInstruction = await aboutTheUserByMeaning(
        (query, limit, signal) => semantic.search(query, limit, signal),
        { prompt, profile: this.profile(), systemInstruction: state.systemInstruction },
        spec.signal,
      );
      if (!spec.signal.aborted) checkpoint(spec, state);
    } catch (error) {
      this.deps.logError('choosing memories by meaning failed', error);
    }
  }

  /** The confirmed memories whose words match the prompt. Memory helps a run but never blocks one. */
  private relevantMemories(prompt: string): string[] {
    try {
      return memoriesByWords(this.deps.store.memories, prompt);
    } catch (error) {
      this.deps.logError('reading memories for a run failed', error);
      return [];
    }
  }

  /** The person as the profile settings describe them. */
  private profile(): UserProfile {
    const config = this.deps.settings.get();
    return {
      name: config.userName,
      email: config.userEmail,
      timezone: config.timezone,
      preferences: config.preferences,
    };
  }
}
