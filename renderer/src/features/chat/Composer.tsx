import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS } from '../../../../shared/contract/limits';
import { useAgents, useApprovals, useChat, useStores } from '../../stores';
import { AgentPicker, agentMention } from '../agents/AgentPicker';
import { isStopping } from './chat-state';
import { SendAnywayPrompt } from './SendAnywayPrompt';
import { useDraft } from './use-draft';
import { boxTextWith, type BoxDraft } from './box-draft';
import './chat.css';
import { isFocusLost } from '../../focus';

export function Composer({
  draft,
  idlePlaceholder = 'Ask Deputy to do something (Shift+Enter for a new line)',
}: {
  draft?: BoxDraft;
  /** What the empty box says while Deputy is idle; the quick prompt's narrower box says it shorter. */
  idlePlaceholder?: string;
}) {
  const threadId = useChat((state) => state.conversation.threadId);
  const replaced = useChat((state) => state.deletedThread?.threadId ?? null);
  const [text, setText, keepDraft] = useDraft(threadId, replaced);
  const send = useChat((state) => state.send);
  const stop = useChat((state) => state.stop);
  const isRunning = useChat((state) => state.isStarting || state.conversation.activeRun !== null);
  const isStopAsked = useChat(isStopping);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const { agents: agentsStore, chat: chatStore } = useStores();
  const agents = useAgents((state) => state.agents);
  const [picker, setPicker] = useState<{ isOpen: boolean; preselect: string | null }>({
    isOpen: false,
    preselect: null,
  });

  useEffect(() => {
    void agentsStore.getState().load();
  }, [agentsStore]);
  // A new message cancels an approval this conversation waits on: the person is asked first.
  const isApprovalWaiting = useApprovals((state) =>
    Object.values(state.known).some(
      (approval) => approval.threadId === threadId && approval.status === 'pending',
    ),
  );
  const [isAsking, setIsAsking] = useState(false);

  // Words put in from elsewhere (an example, a question asked again) come last: the caret goes after them, and a
  // box too short for all of it shows them. The draft is applied once; the caret moves once its text is drawn.
  const appliedDraft = useRef<BoxDraft>(undefined);
  const isCaretToEnd = useRef(false);
  useLayoutEffect(() => {
    const box = inputRef.current;
    if (draft && appliedDraft.current !== draft) {
      appliedDraft.current = draft;
      box?.focus();
      isCaretToEnd.current = true;
      const next = boxTextWith(text, draft);
      if (next !== text) return setText(next);
    }
    if (!isCaretToEnd.current || !box) return;
    isCaretToEnd.current = false;
    box.setSelectionRange(box.value.length, box.value.length);
    box.scrollTop = box.scrollHeight;
  }, [draft, text, setText]);

  // A disabled textarea loses focus; give it back when the run ends so typing can simply go on.
  useEffect(() => {
    if (!isRunning && isFocusLost()) {
      inputRef.current?.focus();
    }
  }, [isRunning]);

  const submit = (isConfirmed = false, hasWaitedForAgents = false) => {
    if (isRunning || !text.trim()) return;
    // "@researcher …" starts that agent: its form opens instead of a chat message.
    const mention = agentMention(text);
    if (mention && agents === null && !hasWaitedForAgents) {
      // The list of agents has not arrived yet (the window just opened): wait for it, rather than send
      // "@researcher" to the chat as words.
      void agentsStore
        .getState()
        .load()
        .then(() => submit(isConfirmed, true));
      return;
    }
    const known = agents ?? agentsStore.getState().agents;
    if (mention && known?.some((agent) => agent.name === mention)) {
      setPicker({ isOpen: true, preselect: mention });
      setText('');
      return;
    }
    if (isApprovalWaiting && !isConfirmed) {
      setIsAsking(true);
      return;
    }
    setIsAsking(false);
    const sent = text;
    const sentFrom = threadId;
    setText('');
    // A send that fails gives the words back, unless the person has started typing something else; to the
    // draft of the conversation they were written in, if another one is open by then.
    void send(sent).then((isSent) => {
      if (isSent) return;
      const { conversation, deletedThread } = chatStore.getState();
      // Its conversation deleted meanwhile, the new one in its place takes the words, to be sent there.
      if (conversation.threadId === sentFrom || deletedThread?.threadId === sentFrom)
        setText((current) => (current === '' ? sent : current));
      else keepDraft(sentFrom, sent);
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line; Enter that confirms an IME composition does neither.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <>
      {/* Outside the composer's form: the picker holds a form of its own. */}
      <AgentPicker
        isOpen={picker.isOpen}
        preselect={picker.preselect}
        onClose={() => setPicker({ isOpen: false, preselect: null })}
      />
      {isAsking && (
        <SendAnywayPrompt
          onSend={() => submit(true)}
          onKeep={() => {
            setIsAsking(false);
            inputRef.current?.focus();
          }}
        />
      )}
      <form className="composer" onSubmit={onSubmit} aria-label="Send a message">
        <label className="visually-hidden" htmlFor="composer-input">
          Message Deputy
        </label>
        <textarea
          id="composer-input"
          ref={inputRef}
          data-testid="composer-input"
          rows={2}
          value={text}
          maxLength={LIMITS.promptChars}
          placeholder={isRunning ? 'Deputy is working…' : idlePlaceholder}
          disabled={isRunning}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="button"
          className="button"
          data-testid="composer-agents"
          disabled={isRunning}
          onClick={() => setPicker({ isOpen: true, preselect: null })}
        >
          Agents
        </button>
        {/* Keyed apart: one reused <button> would keep the focus of Stop as a disabled Send, and the focus would
            then fall to the page instead of coming back to the message box. */}
        {isRunning ? (
          <button
            key="stop"
            type="button"
            className="button button--stop"
            data-testid="composer-stop"
            onClick={() => void stop()}
          >
            {isStopAsked ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button
            key="send"
            type="submit"
            className="button button--primary"
            data-testid="composer-send"
            disabled={!text.trim()}
          >
            Send
          </button>
        )}
      </form>
    </>
  );
}
