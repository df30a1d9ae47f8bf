import { useEffect, useId } from 'react';
import { FormError } from '../../components/FormParts';
import { useSettings, useStores, useUsage } from '../../stores';
import { PriceTable } from './PriceTable';
import { costWords, dayLabel, modelsOf, tokenCount, totalCostWords } from './usage-words';

/** Settings → Usage: tokens and their estimated cost per day, and the price table the estimates use. */
export function UsagePanel() {
  const { usage } = useStores();
  const daily = useUsage((state) => state.daily);
  const error = useUsage((state) => state.dailyError);
  const prices = useSettings((state) => state.settings?.modelPrices);
  const daysId = useId();
  const pricesId = useId();
  useEffect(() => {
    void usage.getState().loadDaily();
  }, [usage]);
  const reload = () => void usage.getState().loadDaily();
  const total = daily && totalCostWords(daily.total.cost);

  return (
    <div className="usage-panel" data-testid="usage-panel">
      <section aria-labelledby={daysId}>
        <h3 id={daysId}>The last 30 days</h3>
        {error && <FormError testId="usage-error">{error}</FormError>}
        {!daily && !error && <p role="status">Adding up…</p>}
        {daily && daily.days.length === 0 && <p>No tokens used in the last 30 days.</p>}
        {daily && daily.days.length > 0 && (
          <>
            <p>
              {total?.lead}
              <strong data-testid="usage-total-cost" data-cost={daily.total.cost ?? ''}>
                {total?.amount}
              </strong>{' '}
              for {tokenCount(daily.total.inputTokens)} tokens in and {tokenCount(daily.total.outputTokens)}{' '}
              out. An estimate from the prices below; Google’s bill is what counts. Days are in{' '}
              {daily.timezone}.
            </p>
            {daily.unpricedModels.length > 0 && (
              <p className="settings-form__note" data-testid="usage-unpriced">
                No price for {daily.unpricedModels.join(', ')}: their tokens count, their cost does not. Add
                them below.
              </p>
            )}
            <div className="usage-panel__scroll">
              <table data-testid="usage-days">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Tokens in</th>
                    <th scope="col">Tokens out</th>
                    <th scope="col">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {daily.days.map((day) => (
                    <tr key={day.day} title={modelsOf(day)}>
                      <th scope="row">{dayLabel(day.day)}</th>
                      <td>{tokenCount(day.inputTokens)}</td>
                      <td>{tokenCount(day.outputTokens)}</td>
                      <td>{costWords(day.cost)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      <section aria-labelledby={pricesId}>
        <h3 id={pricesId}>Prices</h3>
        {prices && <PriceTable prices={prices} onSaved={reload} />}
      </section>
    </div>
  );
}
