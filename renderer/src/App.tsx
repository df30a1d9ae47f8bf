import { Suspense, useEffect, useRef, useState } from 'react';
import type { ConnectionStatus } from './api/ws-client';
import { PendingApprovalsButton, PendingApprovalsPanel } from './features/approvals/PendingApprovals';
import { ChatScreen } from './features/chat/ChatScreen';
import { ThreadList } from './features/chat/ThreadList';
import { loadLastThreadId, saveLastThreadId } from './features/chat/last-thread';
import { TokenScreen } from './features/connection/TokenScreen';
import { useConnection } from './features/connection/use-connection';
import { ConnectionNote } from './features/connection/ConnectionNote';
import { useReadAgainOnReconnect } from './features/connection/use-read-again';
import { PauseBanner } from './features/side-effects/PauseBanner';
import { TasksPanel } from './features/tasks/TasksPanel';
import { ApprovalWindow, AuditScreen, Loading, QuickPrompt, SettingsPanel } from './lazy-screens';
import type { SettingsRequest } from './features/settings/SettingsPanel';
import { useDrawer } from './features/layout/use-drawer';
import { SkipToComposer } from './features/layout/SkipToComposer';
import './features/layout/layout.css';
import { joinHash, routeFromHash, splitHash, type Route } from './route';
import { StoresContext, useStores } from './stores';

/**
 * A place the shell or a link asks the workspace for (`#/thread/<id>`, `#/settings/connections`) is taken once: the
 * address goes back to the workspace's own (its parameters kept), replacing the asked one in the history, so that
 * the next ask, even for the same place, is a change the page hears, and Back does not ask again.
 */
function leaveAskedRoute(): void {
  window.location.replace(joinHash('/', splitHash(window.location.hash).params));
}

function Workspace({
  status,
  threadId,
  settings,
}: {
  status: ConnectionStatus | 'ipc';
  threadId?: string;
  settings?: 'connections';
}) {
  const stores = useStores();
  const [isSettingsOpen, setIsSettingsOpen] = useState(false);
  // Settings is its own chunk: fetched the first time it opens, then kept (it remembers its tab).
  const [hasOpenedSettings, setHasOpenedSettings] = useState(false);
  const [settingsTab, setSettingsTab] = useState<SettingsRequest | null>(null);
  const openSettings = (request?: SettingsRequest) => {
    setHasOpenedSettings(true);
    setIsSettingsOpen(true);
    if (request) setSettingsTab(request);
  };
  // A request lasts as long as the dialog it opened: opened again from the header, Settings puts no focus in a card.
  const closeSettings = () => {
    setIsSettingsOpen(false);
    setSettingsTab(null);
  };
  // Where a missing or refused Gemini key is put right: Settings → Connections, with the keyboard in the key field.
  const openConnections = () => openSettings({ tab: 'connections', connection: 'gemini' });
  const [isApprovalsOpen, setIsApprovalsOpen] = useState(false);
  const [isTasksOpen, setIsTasksOpen] = useState(false);

  useEffect(() => {
    const disconnectChat = stores.chat.getState().connect();
    const disconnectApprovals = stores.approvals.getState().connect();
    const disconnectAgents = stores.agents.getState().connect();
    const disconnectPlans = stores.plans.getState().connect();
    void stores.settings.getState().load();
    return () => {
      disconnectChat();
      disconnectApprovals();
      disconnectAgents();
      disconnectPlans();
    };
  }, [stores]);

  // `#/thread/<id>`: the shell (a deep link, "Open in Deputy", a notification) or a link back from the audit
  // viewer asks for one conversation. Taken once (leaveAskedRoute): moving to another conversation here does not
  // change the address, so a second ask for this one would otherwise be the same address, and not heard.
  useEffect(() => {
    if (threadId === undefined) return;
    void stores.chat.getState().openThread(threadId);
    leaveAskedRoute();
  }, [threadId, stores]);

  // `#/settings/connections`: the shell asks for it (the quick prompt's way to a Gemini key). Taken once.
  useEffect(() => {
    if (settings !== 'connections') return;
    openConnections();
    leaveAskedRoute();
    // openSettings only sets state; the route is what asks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);

  // Reopened, the window comes back to the conversation it last had open (unless asked for another, above);
  // one deleted since leaves the welcome, and is forgotten.
  useEffect(() => {
    const last = loadLastThreadId();
    if (threadId === undefined && last !== null)
      void stores.chat
        .getState()
        .reopenThread(last)
        .then((isOpen) => !isOpen && saveLastThreadId(null));
    return stores.chat.subscribe((state, previous) => {
      const open = state.conversation.threadId;
      if (open !== previous.conversation.threadId) saveLastThreadId(open);
    });
    // Once, at start: later deep links are the effect above's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stores]);

  useReadAgainOnReconnect(status);
  const drawer = useDrawer();

  const menuRef = useRef<HTMLDivElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  // Widened past 480 px with the menu open, its items go back into the header: the open menu closes.
  useEffect(() => {
    const wide = window.matchMedia('(width > 480px)');
    const close = () => {
      const menu = menuRef.current;
      if (wide.matches && menu?.matches(':popover-open')) menu.hidePopover();
    };
    wide.addEventListener('change', close);
    return () => wide.removeEventListener('change', close);
  }, []);
  // A choice made in the open menu closes it first and leaves focus on "More", so that a dialog it opens gives
  // focus back to a button the person can see.
  const fromMenu = (act: () => void) => () => {
    const menu = menuRef.current;
    if (menu?.matches(':popover-open')) {
      menu.hidePopover();
      menuButtonRef.current?.focus();
    }
    act();
  };

  return (
    <div
      className={`app${drawer.isOpen ? ' app--drawer-open' : ''}${drawer.isMoving ? ' app--drawer-moving' : ''}`}
    >
      <SkipToComposer />
      <header className="app__header">
        <button
          type="button"
          id="drawer-toggle"
          className="button drawer-toggle"
          aria-expanded={drawer.isOpen}
          aria-controls="conversation-drawer"
          data-testid="drawer-toggle"
          onClick={drawer.toggle}
        >
          Chats
        </button>
        <h1 className="app__title">Deputy</h1>
        <ConnectionNote status={status} className="app__connection" />
        <PendingApprovalsButton onOpen={() => setIsApprovalsOpen(true)} />
        {/* In a narrow window Tasks, the audit trail and Settings move into a menu, so that the header stays one
            row and keeps the app's name; wider, the menu's box is not drawn and they sit in the header. */}
        <button
          type="button"
          ref={menuButtonRef}
          className="button header-menu-button"
          popoverTarget="header-menu"
          data-testid="header-menu-button"
        >
          More
        </button>
        <div
          ref={menuRef}
          id="header-menu"
          className="header-menu"
          popover="auto"
          data-testid="header-menu"
          onBlur={(event) => {
            // Tab out of the open menu closes it, as a click outside does; moving within it does not.
            const next = event.relatedTarget as Node | null;
            const menu = menuRef.current;
            if (
              menu?.matches(':popover-open') &&
              next &&
              !menu.contains(next) &&
              next !== menuButtonRef.current
            )
              menu.hidePopover();
          }}
        >
          <button
            type="button"
            className="button"
            data-testid="open-tasks"
            aria-haspopup="dialog"
            onClick={fromMenu(() => setIsTasksOpen(true))}
          >
            Tasks
          </button>
          {/* Its own window: the Electron shell opens the viewer in one, a browser in a new tab. */}
          <a
            className="button"
            href="#/audit"
            target="_blank"
            rel="opener"
            data-testid="open-audit"
            onClick={fromMenu(() => undefined)}
          >
            Audit trail
          </a>
          <button
            type="button"
            className="button"
            data-testid="open-settings"
            aria-haspopup="dialog"
            onClick={fromMenu(() => openSettings())}
          >
            Settings
          </button>
        </div>
      </header>
      <PauseBanner />
      <aside
        ref={drawer.ref}
        className="app__sidebar"
        id="conversation-drawer"
        aria-label="Conversation list"
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('[data-testid="new-conversation"]')) drawer.close();
        }}
      >
        <ThreadList />
      </aside>
      {drawer.isOpen && (
        <button
          type="button"
          className="drawer-backdrop"
          tabIndex={-1}
          aria-hidden="true"
          onClick={drawer.close}
        />
      )}
      <ChatScreen onOpenConnections={openConnections} />
      {hasOpenedSettings && (
        <Suspense fallback={null}>
          <SettingsPanel isOpen={isSettingsOpen} onClose={closeSettings} tabRequest={settingsTab} />
        </Suspense>
      )}
      <PendingApprovalsPanel isOpen={isApprovalsOpen} onClose={() => setIsApprovalsOpen(false)} />
      <TasksPanel isOpen={isTasksOpen} onClose={() => setIsTasksOpen(false)} />
    </div>
  );
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => routeFromHash(window.location.hash));
  useEffect(() => {
    const onHashChange = () => setRoute(routeFromHash(window.location.hash));
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  return route;
}

export function App() {
  const route = useRoute();
  const { connection, submitToken } = useConnection();
  if (connection.kind === 'needs-token')
    return <TokenScreen problem={connection.problem} onSubmit={submitToken} />;
  if (connection.kind === 'connecting') {
    return (
      <p className="splash" role="status">
        Connecting to Deputy…
      </p>
    );
  }
  return (
    <StoresContext value={connection.stores}>
      {route.kind === 'approval' ? (
        <Loading>
          <ApprovalWindow key={route.approvalId} approvalId={route.approvalId} status={connection.status} />
        </Loading>
      ) : route.kind === 'quick' ? (
        <Loading>
          <QuickPrompt status={connection.status} />
        </Loading>
      ) : route.kind === 'audit' ? (
        <Loading>
          <AuditScreen entryId={route.entryId} status={connection.status} />
        </Loading>
      ) : (
        <Workspace status={connection.status} threadId={route.threadId} settings={route.settings} />
      )}
    </StoresContext>
  );
}
