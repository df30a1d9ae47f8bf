import { useId, useState, type FormEvent } from 'react';
import type { TaskItem } from '../../../../shared/contract';
import { dueInput } from './task-words';

export interface TaskValues {
  description: string;
  due: string | null;
  notes: string | null;
}

/** A due date from the two inputs: a date, or a date and a time; none when the date is empty. */
function composeDue(date: string, time: string): string | null {
  if (!date) return null;
  return time ? `${date}T${time}` : date;
}

/** Adds a task, or edits one (`task` given): a description, an optional due date and time, and notes. */
export function TaskForm({
  task,
  isBusy,
  onSubmit,
  onCancel,
}: {
  task?: TaskItem;
  isBusy: boolean;
  onSubmit: (values: TaskValues) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [description, setDescription] = useState(task?.description ?? '');
  const [date, setDate] = useState(dueInput(task?.due ?? null).slice(0, 10));
  const [time, setTime] = useState(dueInput(task?.due ?? null).slice(11, 16));
  const [notes, setNotes] = useState(task?.notes ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!description.trim()) return setProblem('Say what needs doing.');
    if (time && !date) return setProblem('Pick a day for the time, or clear the time.');
    setProblem(null);
    const isTaken = await onSubmit({
      description: description.trim(),
      due: composeDue(date, time),
      notes: notes.trim() || null,
    });
    if (isTaken && !task) {
      setDescription('');
      setDate('');
      setTime('');
      setNotes('');
    }
  };

  return (
    <form
      className={`task-form${task ? ' task-form--edit' : ''}`}
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        // Escape cancels an edit, as Cancel does, rather than closing the whole panel with it.
        if (event.key !== 'Escape' || !onCancel || event.nativeEvent.isComposing) return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}
      noValidate
      data-testid={task ? 'task-edit-form' : 'task-add-form'}
    >
      <label className="task-form__description">
        {task ? 'Task' : 'New task'}
        <input
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          // While a change is being sent the form is read-only: it clears once the change is taken.
          readOnly={isBusy}
          // Edit pressed: the keyboard goes on in the task's words, where its row was.
          autoFocus={task !== undefined}
          maxLength={500}
          placeholder={task ? undefined : 'Buy milk'}
          aria-invalid={problem !== null && !description.trim()}
          aria-describedby={problem ? `${ids}-problem` : undefined}
        />
      </label>
      <label>
        Due date
        <input type="date" value={date} readOnly={isBusy} onChange={(event) => setDate(event.target.value)} />
      </label>
      <label>
        Time
        <input type="time" value={time} readOnly={isBusy} onChange={(event) => setTime(event.target.value)} />
      </label>
      <label className="task-form__notes">
        Notes
        <textarea
          rows={task ? 3 : 1}
          value={notes}
          maxLength={4_000}
          onChange={(event) => setNotes(event.target.value)}
          readOnly={isBusy}
        />
      </label>
      {problem && (
        <p id={`${ids}-problem`} className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="task-form__actions">
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {task ? 'Save' : 'Add task'}
        </button>
      </div>
    </form>
  );
}
