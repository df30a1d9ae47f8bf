import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useModalDialog } from '../../use-modal-dialog';
import { tabForKey } from '../../tab-keys';
import { ScrollingTabs } from '../../components/ScrollingTabs';
import type { ConnectionName, Settings } from '../../../../shared/contract';
import { useSettings, useStores } from '../../stores';
import { FooterPlace } from './FooterActions';
import { GeneralForm } from './GeneralForm';
import { PermissionsForm } from './PermissionsForm';
import { UnsavedPrompt } from './UnsavedPrompt';
import { isSaveShortcut, saveShortcut } from './save-shortcut';
import { ConnectionsPanel } from '../connections/ConnectionsPanel';
import { MemoryPanel } from '../memory/MemoryPanel';
import { DataPanel } from '../data/DataPanel';
import { UsagePanel } from '../usage/UsagePanel';
import { AgentsPanel } from '../agents/AgentsPanel';
import { ExtensionsPanel } from '../extensions/ExtensionsPanel';
import { DesktopPanel } from '../desktop/DesktopPanel';

export type SettingsTab = Tab;
/** What another screen asks Settings to show: a tab, and on Connections the card whose field to fill. */
export interface SettingsRequest {
  tab: SettingsTab;
  connection?: ConnectionName;
}
type Tab =
  | 'general'
  | 'permissions'
  | 'connections'
  | 'extensions'
  | 'agents'
  | 'memory'
  | 'usage'
  | 'data'
  | 'desktop';
const CORE_TABS: { id: Tab; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'connections', label: 'Connections' },
  { id: 'extensions', label: 'Extensions' },
  { id: 'agents', label: 'Agents' },
  { id: 'memory', label: 'Memory' },
  { id: 'usage', label: 'Usage' },
  { id: 'data', label: 'Data' },
];
/** Tabs whose forms are saved with a button: typing there marks them unsaved until then. */
const FORM_TABS: ReadonlySet<Tab> = new Set(['general', 'permissions', 'usage']);
/** Tabs that are one form: its Save is in the footer, in view however far down the tab is scrolled. */
const FOOTER_SAVE_TABS: ReadonlySet<Tab> = new Set(['general', 'permissions']);
/** Desktop (the shell's own preferences) only inside the desktop app, where there is a shell to ask. */
const TABS = window.deputyShell ? [...CORE_TABS, { id: 'desktop' as const, label: 'Desktop' }] : CORE_TABS;

function TabContent({
  tab,
  settings,
  request,
}: {
  tab: Tab;
  settings: Settings;
  request: SettingsRequest | null;
}) {
  switch (tab) {
    case 'general':
      return <GeneralForm settings={settings} />;
    case 'permissions':
      return <PermissionsForm settings={settings} />;
    case 'connections':
      return <ConnectionsPanel focusOn={request?.connection ?? null} />;
    case 'extensions':
      return <ExtensionsPanel />;
    case 'agents':
      return <AgentsPanel />;
    case 'memory':
      return <MemoryPanel />;
    case 'usage':
      return <UsagePanel />;
    case 'data':
      return <DataPanel />;
    case 'desktop':
      return window.deputyShell ? <DesktopPanel shell={window.deputyShell} /> : null;
  }
}

/** Which tabs hold changes not saved yet: "Unsaved changes" (this tab), "… in General" (another), or both. */
function unsavedWords(tab: Tab, unsaved: ReadonlySet<Tab>): string {
  const others = TABS.filter((item) => item.id !== tab && unsaved.has(item.id)).map((item) => item.label);
  const elsewhere = others.join(' and ');
  if (unsaved.has(tab))
    return others.length > 0 ? `Unsaved changes here and in ${elsewhere}` : 'Unsaved changes';
  return others.length > 0 ? `Unsaved changes in ${elsewhere}` : '';
}

/** A modal dialog with a section per tab: the browser traps focus inside it and Escape closes it. */
export function SettingsPanel({
  isOpen,
  onClose,
  tabRequest = null,
}: {
  isOpen: boolean;
  onClose: () => void;
  /** A tab to show, asked for by another screen (a new object each time it asks; null once it closes). */
  tabRequest?: SettingsRequest | null;
}) {
  const dialogRef = useModalDialog(isOpen);
  const { settings: store } = useStores();
  const settings = useSettings((state) => state.settings);
  const loadError = useSettings((state) => state.loadError);
  const [tab, setTab] = useState<Tab>(tabRequest?.tab ?? 'general');
  // Taken while rendering, not in an effect: the dialog opens (and places focus) with the asked-for tab.
  const [seenRequest, setSeenRequest] = useState(tabRequest);
  if (tabRequest !== seenRequest) {
    setSeenRequest(tabRequest);
    if (tabRequest) setTab(tabRequest.tab);
  }
  // Settings can change behind this window (an "always allow" adds a rule): read them again on every open.
  const [isFresh, setIsFresh] = useState(false);
  const titleId = useId();
  const tabIds = useId();
  // Typing in a form of a tab whose Save is in place (Usage's prices) marks it unsaved until that form is submitted.
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<HTMLFormElement>>(new Set());
  // A tab whose Save is in the footer says itself whether its form differs from what is saved.
  const [unsavedTabs, setUnsavedTabs] = useState<ReadonlySet<Tab>>(new Set());
  const isDirty = dirtyForms.size > 0 || unsavedTabs.size > 0;
  const markDirty = (event: { target: EventTarget }) => {
    const { form } = event.target as { form?: HTMLFormElement | null };
    // A form whose Save is in the footer says itself whether it differs, what is typed and not added included.
    if (!form || form.dataset.savesInFooter !== undefined) return;
    if (!dirtyForms.has(form)) setDirtyForms(new Set([...dirtyForms, form]));
  };
  const markSaved = (event: { target: EventTarget }) => {
    const form = event.target as HTMLFormElement;
    if (dirtyForms.has(form)) setDirtyForms(new Set([...dirtyForms].filter((item) => item !== form)));
  };
  const [isAsking, setIsAsking] = useState(false);
  // The footer's place for each form tab's Save, once drawn.
  const [slots, setSlots] = useState<Partial<Record<Tab, HTMLElement>>>({});
  const slotRef = (id: Tab) => (node: HTMLDivElement | null) => {
    if (node) setSlots((drawn) => (drawn[id] === node ? drawn : { ...drawn, [id]: node }));
  };
  const reportUnsaved = useCallback((id: Tab, isUnsaved: boolean) => {
    setUnsavedTabs((tabs) => {
      if (tabs.has(id) === isUnsaved) return tabs;
      return new Set(isUnsaved ? [...tabs, id] : [...tabs].filter((item) => item !== id));
    });
  }, []);
  // One reporter per tab, the same on every render: a form reports again only when its answer changes.
  const reporters = useMemo(
    () => new Map(TABS.map((item) => [item.id, (isUnsaved: boolean) => reportUnsaved(item.id, isUnsaved)])),
    [reportUnsaved],
  );
  // Bumped on discard, so the forms are drawn again from the saved settings.
  const [generation, setGeneration] = useState(0);
  // Where the keyboard was when Close or Escape asked: Keep editing puts it back there.
  const askedFrom = useRef<HTMLElement | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const requestClose = () => {
    if (!isDirty) return onClose();
    askedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setIsAsking(true);
  };
  const keepEditing = () => {
    setIsAsking(false);
    const from = askedFrom.current;
    (from?.isConnected && dialogRef.current?.contains(from) ? from : closeRef.current)?.focus();
  };
  const discard = () => {
    setDirtyForms(new Set());
    setUnsavedTabs(new Set());
    setIsAsking(false);
    setGeneration((value) => value + 1);
    onClose();
  };

  useEffect(() => {
    if (!isOpen) return;
    let isCurrent = true;
    setIsFresh(false);
    void store
      .getState()
      .load()
      .then(() => isCurrent && setIsFresh(true));
    return () => {
      isCurrent = false;
      // Closed: the next open starts from "Loading settings…". Left fresh, it would draw the forms for a moment
      // before this effect asks again, and what was typed in that moment was lost when they were drawn anew.
      setIsFresh(false);
    };
  }, [isOpen, store]);

  const onTabKey = (event: KeyboardEvent) => {
    const next = tabForKey(
      TABS.map((item) => item.id),
      tab,
      event.key,
    );
    if (!next) return;
    event.preventDefault();
    setTab(next);
    document.getElementById(`${tabIds}-${next}-tab`)?.focus();
  };
  // On a narrow window the tabs are one row that scrolls: the chosen one is brought into it, however chosen.
  useEffect(() => {
    if (!isOpen) return;
    document.getElementById(`${tabIds}-${tab}-tab`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [isOpen, tab, tabIds]);

  // Escape is answered here, never left to the browser: Chromium lets a second Escape without a click between
  // close the dialog however its cancel event is refused, which would lose unsaved changes. So Escape asks, and
  // Escape on the question goes back to Settings; only Discard changes discards. (Listened to on the window, so
  // Escape is caught too when the keyboard's focus fell to the page, as from a Save button that went disabled.)
  // The listener reads the latest drawing through a ref, so a change drawn a moment before the Escape counts.
  const answerEscape = useRef(() => {});
  answerEscape.current = () => (isAsking ? keepEditing() : requestClose());
  useEffect(() => {
    if (!isOpen) return;
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      const dialog = event.target instanceof Element ? event.target.closest('dialog') : null;
      if (dialog && dialog !== dialogRef.current) return;
      event.preventDefault();
      answerEscape.current();
    };
    window.addEventListener('keydown', onEscape);
    return () => window.removeEventListener('keydown', onEscape);
  }, [isOpen, dialogRef]);

  // Ctrl+S (⌘S on a Mac) anywhere on a tab whose Save is in the footer presses that Save: from Permissions'
  // rules too, which Tab passes before it. The browser's own "Save page" is not what it means here.
  const saveFromKeyboard = (event: KeyboardEvent) => {
    if (!isSaveShortcut(event) || isAsking || event.nativeEvent.isComposing) return;
    const save = slots[tab]?.querySelector<HTMLButtonElement>('[data-footer-save]');
    if (!save || save.closest('[hidden]')) return;
    event.preventDefault();
    save.click();
  };
  const isUnsavedHere = FOOTER_SAVE_TABS.has(tab) && unsavedTabs.has(tab);

  const isReady = isOpen && settings !== null && isFresh;

  return (
    <dialog
      ref={dialogRef}
      className="settings-panel"
      aria-labelledby={titleId}
      onClose={onClose}
      onKeyDown={saveFromKeyboard}
      onCancel={(event) => {
        // A close request Escape's own handler above did not take: the same question when something is unsaved.
        if (!isDirty) return;
        event.preventDefault();
        requestClose();
      }}
    >
      <h2 id={titleId}>Settings</h2>
      <ScrollingTabs label="Settings sections" testId="settings-tabs" onKeyDown={onTabKey}>
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`${tabIds}-${item.id}-tab`}
            aria-selected={tab === item.id}
            // Its section is drawn once the settings are read: till then the tab names no element that is not there.
            aria-controls={isReady ? `${tabIds}-${item.id}` : undefined}
            tabIndex={tab === item.id ? 0 : -1}
            className="tabs__tab"
            data-testid={`settings-tab-${item.id}`}
            onClick={() => setTab(item.id)}
          >
            {item.label}
          </button>
        ))}
      </ScrollingTabs>
      {/* Only the tab's content scrolls: the title and the tabs above it, and the footer below, stay in view. */}
      <div className="settings-panel__body">
        {isReady &&
          TABS.map((item) => (
            // Every section stays mounted, so switching tabs keeps what was typed in the others.
            <div
              key={`${item.id}-${generation}`}
              role="tabpanel"
              id={`${tabIds}-${item.id}`}
              aria-labelledby={`${tabIds}-${item.id}-tab`}
              hidden={tab !== item.id}
              onInput={FORM_TABS.has(item.id) ? markDirty : undefined}
              onSubmit={markSaved}
            >
              <FooterPlace.Provider
                value={{ slot: slots[item.id] ?? null, reportUnsaved: reporters.get(item.id) ?? (() => {}) }}
              >
                <TabContent tab={item.id} settings={settings} request={tabRequest} />
              </FooterPlace.Provider>
            </div>
          ))}
        {isOpen && !isReady && (
          <p role={loadError ? 'alert' : 'status'}>{loadError ?? 'Loading settings…'}</p>
        )}
      </div>
      {isAsking && <UnsavedPrompt onKeepEditing={keepEditing} onDiscard={discard} />}
      <div className="settings-panel__footer">
        <p className="settings-panel__unsaved" role="status" data-testid="settings-unsaved-note">
          {unsavedWords(tab, unsavedTabs)}
        </p>
        {/* Seen while there is something to save here; a screen reader hears it from Save's aria-keyshortcuts. */}
        {isReady && isUnsavedHere && (
          <p className="settings-panel__shortcut" aria-hidden="true" data-testid="settings-save-shortcut">
            <kbd>{saveShortcut().label}</kbd> saves
          </p>
        )}
        {TABS.filter((item) => FOOTER_SAVE_TABS.has(item.id)).map((item) => (
          <div
            key={item.id}
            ref={slotRef(item.id)}
            className="settings-panel__actions"
            hidden={!isReady || tab !== item.id}
          />
        ))}
        <button
          ref={closeRef}
          type="button"
          className="button"
          onClick={requestClose}
          data-testid="settings-close"
        >
          Close
        </button>
      </div>
    </dialog>
  );
}
