import { useId, useState, type KeyboardEvent } from 'react';
import { acceleratorLabel, acceleratorOf, type KeyNames } from './accelerator';

interface ShortcutRecorderProps {
  shortcut: string;
  keyNames: KeyNames;
  isBusy: boolean;
  onRecorded(accelerator: string): void;
}

/**
 * "Press the keys you want": a button that, once pressed, listens for one key combination and hands it on.
 * Escape alone stops listening; Tab still moves focus, so the recorder never traps the keyboard.
 */
export function ShortcutRecorder({ shortcut, keyNames, isBusy, onRecorded }: ShortcutRecorderProps) {
  const [isRecording, setIsRecording] = useState(false);
  const hintId = useId();

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!isRecording) return;
    const { nativeEvent: press } = event;
    const hasModifier = press.altKey || press.ctrlKey || press.metaKey || press.shiftKey;
    if (press.code === 'Tab' && !hasModifier) return;
    event.preventDefault();
    if (press.code === 'Escape' && !hasModifier) return setIsRecording(false);
    const accelerator = acceleratorOf(press, keyNames);
    if (!accelerator) return;
    setIsRecording(false);
    onRecorded(accelerator);
  };

  return (
    <div className="shortcut-recorder">
      <p className="shortcut-recorder__current">
        Quick prompt shortcut:{' '}
        <kbd data-testid="current-shortcut">{acceleratorLabel(shortcut, keyNames)}</kbd>
      </p>
      <button
        type="button"
        className={isRecording ? 'button button--primary' : 'button'}
        aria-describedby={hintId}
        aria-pressed={isRecording}
        disabled={isBusy}
        onClick={() => setIsRecording((was) => !was)}
        onKeyDown={onKeyDown}
        onBlur={() => setIsRecording(false)}
        data-testid="record-shortcut"
      >
        {isRecording ? 'Press the keys you want…' : 'Change shortcut'}
      </button>
      <span id={hintId} className="settings-form__note">
        {isRecording
          ? 'Hold Ctrl, Alt or Shift (Command or Option on a Mac) and press a key. Escape stops.'
          : 'Opens the quick prompt from any app.'}
      </span>
    </div>
  );
}
