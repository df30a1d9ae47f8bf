import { useEffect, useId, useState } from 'react';
import type { McpServerView } from '../../../../shared/contract';
import { FormError } from '../../components/FormParts';
import { isFocusLost } from '../../focus';
import { useStores } from '../../stores';

/** The panel's own error line: for what concerns no card, or a card gone. */
export const PANEL_ERROR_ID = 'mcp-panel-error';

/** Why a change asked for on a card was not made, and which control asked, on the settings it was asked on. */
interface Problem {
  control: string;
  words: string;
  revision: string;
}

/**
 * Why a change asked for from a server's card (Turn off, its autonomy, a tool's, Restart, Log, Remove) was not made, shown beside
 * the control that asked for it, as Edit and Replace secret show theirs: the panel's own error line is below the
 * import, out of view in a short window. The words go when the card's next change is asked for, or once the
 * server's settings are not those they were said about (they were read again, or changed).
 */
export function useCardProblem(server: McpServerView) {
  const { extensions: store } = useStores();
  const [problem, setProblem] = useState<Problem | null>(null);
  const id = useId();
  const shown = problem?.revision === server.revision ? problem : null;

  /**
   * Makes `change`, asked for by `control` from `element`. A select is disabled while its change is made, which
   * takes the keyboard from it: it gets it back, described by the words if there are any, rather than the page.
   * Answers the words, null once the change is made.
   */
  const attempt = async (
    control: string,
    element: HTMLElement | null,
    change: Promise<string | null>,
  ): Promise<string | null> => {
    setProblem(null);
    const words = await change;
    const now = store.getState().servers?.find((item) => item.name === server.name);
    if (words !== null && !now) {
      // The card went with its server (removed elsewhere): the panel's line says why, and takes the keyboard.
      document.getElementById(PANEL_ERROR_ID)?.focus();
      return words;
    }
    if (words !== null && now) setProblem({ control, words, revision: now.revision });
    if (isFocusLost()) element?.focus();
    return words;
  };
  /** The id of the words about `control`, for its aria-describedby, while there are some. */
  const describedBy = (control: string): string | undefined => (shown?.control === control ? id : undefined);
  /** The words about any of `controls` (a row of them shows them in one place), if there are some. */
  const wordsFor = (...controls: string[]): { id: string; words: string } | null =>
    shown && controls.includes(shown.control) ? { id, words: shown.words } : null;
  return { attempt, describedBy, wordsFor };
}

export type CardProblems = ReturnType<typeof useCardProblem>;

/**
 * The words of a change refused (see useCardProblem), announced as they appear and brought into view with the
 * control beside them, which keeps the keyboard.
 */
export function CardProblem({ problem }: { problem: { id: string; words: string } | null }) {
  const id = problem?.id;
  const words = problem?.words;
  useEffect(() => {
    if (id !== undefined && words !== undefined)
      document.getElementById(id)?.scrollIntoView({ block: 'nearest' });
  }, [id, words]);
  return problem && <FormError id={problem.id}>{problem.words}</FormError>;
}
