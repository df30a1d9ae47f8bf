import type { McpServerView } from '../../../../shared/contract';
import { isFocusLost } from '../../focus';
import { useStores } from '../../stores';
import { useInlineQuestion } from '../../use-inline-question';
import { CardProblem, type CardProblems } from './CardProblem';

/**
 * Remove, after a confirmation in the card that says what goes with the server: its secrets leave the vault for
 * good. Escape or Keep closes it and puts the keyboard back on Remove. Why a removal was refused is said in the
 * confirmation, under its buttons, and its Remove button gets the keyboard back.
 */
export function RemoveServer({
  server,
  isBusy,
  problem,
}: {
  server: McpServerView;
  isBusy: boolean;
  problem: CardProblems;
}) {
  const { extensions: store } = useStores();
  const question = useInlineQuestion();
  const hasSecrets = server.maskedSecrets.length > 0;

  const remove = async (button: HTMLElement) => {
    const words = await problem.attempt('Remove', button, store.getState().remove(server.name));
    if (words !== null) return;
    // The card, and this button, are gone: the keyboard goes on at the panel's next place to act.
    if (isFocusLost()) document.querySelector<HTMLElement>('[data-testid="mcp-add-form"] input')?.focus();
  };

  if (!question.isAsking)
    return (
      <button
        ref={question.askButton}
        type="button"
        className="button"
        disabled={isBusy}
        onClick={() => question.setIsAsking(true)}
      >
        Remove
      </button>
    );
  return (
    <div
      className="extensions-panel__confirm"
      role="group"
      data-keeps-escape
      aria-label={`Remove ${server.name}?`}
      data-testid={`mcp-remove-confirm-${server.name}`}
      onKeyDown={question.onKeyDown}
    >
      <p>
        Remove {server.name} for good? Its tools are no longer offered, and approvals waiting for them are
        turned down.
        {hasSecrets
          ? ` Its secrets (${server.maskedSecrets.map((secret) => secret.name).join(', ')}) are deleted from the vault; to add it again you will need them.`
          : ' It has no secrets in the vault.'}
      </p>
      <div className="settings-form__actions">
        <button
          type="button"
          className="button button--stop"
          autoFocus
          disabled={isBusy}
          aria-describedby={problem.describedBy('Remove')}
          onClick={(event) => void remove(event.currentTarget)}
        >
          {isBusy ? 'Removing…' : `Remove ${server.name}`}
        </button>
        <button type="button" className="button" disabled={isBusy} onClick={question.keep}>
          Keep it
        </button>
      </div>
      <CardProblem problem={problem.wordsFor('Remove')} />
    </div>
  );
}
