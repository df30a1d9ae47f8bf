import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { DEFAULT_MODEL_PRICES, type ModelPrice } from '../../../../shared/model-prices';
import { FormError, SubmitButton } from '../../components/FormParts';
import { focusPastRemoved } from '../../focus';
import { useStores } from '../../stores';
import { isSaveShortcut, saveShortcut } from '../settings/save-shortcut';

type Row = { key: number; model: string; input: string; output: string };

const toRows = (prices: Readonly<Record<string, ModelPrice>>): Row[] =>
  Object.entries(prices).map(([model, price], key) => ({
    key,
    model,
    input: String(price.input),
    output: String(price.output),
  }));

/** The rows as the table to save, or what is wrong with them, in words. */
function toTable(
  rows: Row[],
): { ok: true; table: Record<string, ModelPrice> } | { ok: false; message: string } {
  const table: Record<string, ModelPrice> = {};
  for (const row of rows) {
    const model = row.model.trim();
    if (!model) return { ok: false, message: 'Every row needs a model id, such as gemini-2.5-flash.' };
    if (table[model]) return { ok: false, message: `${model} is in the table twice.` };
    const input = Number(row.input);
    const output = Number(row.output);
    if (
      row.input.trim() === '' ||
      row.output.trim() === '' ||
      !Number.isFinite(input) ||
      !Number.isFinite(output)
    )
      return { ok: false, message: `Give ${model} a price in dollars for input and for output.` };
    if (input < 0 || output < 0) return { ok: false, message: `A price cannot be negative (${model}).` };
    table[model] = { input, output };
  }
  return { ok: true, table };
}

/** Settings → Usage: the price per million tokens of each model, which every cost estimate uses. */
export function PriceTable({
  prices,
  onSaved,
}: {
  prices: Readonly<Record<string, ModelPrice>>;
  onSaved: () => void;
}) {
  const { settings } = useStores();
  const [rows, setRows] = useState(() => toRows(prices));
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [isSaved, setIsSaved] = useState(false);
  const captionId = useId();
  const change = (key: number, field: 'model' | 'input' | 'output', value: string) => {
    setIsSaved(false);
    setRows((previous) => previous.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
  };
  const nextKey = () => Math.max(-1, ...rows.map((row) => row.key)) + 1;
  // A row added is for filling in: the keyboard goes to its model id.
  const addButton = useRef<HTMLButtonElement>(null);
  const addedKey = useRef<number | null>(null);
  const tableRef = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    if (addedKey.current === null) return;
    tableRef.current?.querySelector<HTMLInputElement>(`[data-row-key="${addedKey.current}"] input`)?.focus();
    addedKey.current = null;
  }, [rows]);

  const save = async (table: Record<string, ModelPrice>) => {
    setIsSaving(true);
    const refused = await settings.getState().apply({ modelPrices: table });
    setIsSaving(false);
    setError(refused);
    setIsSaved(refused === null);
    if (refused === null) onSaved();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = toTable(rows);
    if (!checked.ok) return setError(checked.message);
    void save(checked.table);
  };

  // The table has its own Save, not the footer's: Ctrl+S (⌘S on a Mac) from any of its fields presses it, as the
  // footer's Save is pressed on General and Permissions.
  const saveFromKeyboard = (event: KeyboardEvent<HTMLFormElement>) => {
    if (!isSaveShortcut(event) || event.nativeEvent.isComposing) return;
    event.preventDefault();
    event.currentTarget.requestSubmit();
  };

  return (
    <form
      className="price-table"
      onSubmit={onSubmit}
      onKeyDown={saveFromKeyboard}
      noValidate
      data-testid="price-table"
    >
      <table>
        <caption id={captionId}>Prices in US dollars per million tokens</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Input</th>
            <th scope="col">Output</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody ref={tableRef}>
          {rows.map((row) => (
            <tr key={row.key} data-row-key={row.key}>
              <td>
                <input
                  aria-label="Model id"
                  value={row.model}
                  onChange={(event) => change(row.key, 'model', event.target.value)}
                  spellCheck={false}
                  autoComplete="off"
                />
              </td>
              {(['input', 'output'] as const).map((side) => (
                <td key={side}>
                  <input
                    aria-label={`${side === 'input' ? 'Input' : 'Output'} price of ${row.model || 'this model'}`}
                    type="number"
                    min={0}
                    step="any"
                    inputMode="decimal"
                    value={row[side]}
                    onChange={(event) => change(row.key, side, event.target.value)}
                  />
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={`Remove ${row.model || 'this row'}`}
                  title="Remove"
                  data-remove-row
                  onClick={(event) => {
                    focusPastRemoved(
                      event.currentTarget,
                      event.currentTarget
                        .closest('tbody')
                        ?.querySelectorAll<HTMLElement>('[data-remove-row]') ?? [],
                      addButton.current,
                    );
                    setIsSaved(false);
                    setRows((previous) => previous.filter((item) => item.key !== row.key));
                  }}
                >
                  <span aria-hidden="true">✕</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <FormError testId="price-table-error">{error}</FormError>}
      {isSaved && !error && (
        <p className="form-success" role="status">
          Prices saved. Costs are estimated with them from now on, for past days too.
        </p>
      )}
      <div className="settings-form__actions">
        <button
          ref={addButton}
          type="button"
          className="button"
          onClick={() => {
            setIsSaved(false);
            addedKey.current = nextKey();
            setRows((previous) => [...previous, { key: nextKey(), model: '', input: '', output: '' }]);
          }}
        >
          Add a model
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setRows(toRows(DEFAULT_MODEL_PRICES));
            void save({ ...DEFAULT_MODEL_PRICES });
          }}
        >
          Reset to Google’s list prices
        </button>
        <SubmitButton
          isBusy={isSaving}
          label="Save prices"
          busyLabel="Saving…"
          testId="price-table-save"
          keyShortcut={saveShortcut()}
        />
      </div>
    </form>
  );
}
