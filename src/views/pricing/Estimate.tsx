import { useId, useMemo, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { computePrice, type PriceSettings, type ProjectCounts } from '../../domain/price';
import { AUDIENCES, CountsInput, type Audience, type Tariff } from '../../domain/pricing';
import { Field } from '../ui/Field';
import { numberFrom } from './formErrors';
import { formErrors } from '../ui/validation';
import { PriceBreakdownView } from './PriceBreakdownView';

const COUNT_KEYS = [
  'questions',
  'blocks',
  'screening',
  'targetFilters',
  'completes',
] as const satisfies readonly (keyof ProjectCounts)[];
const START: Record<keyof ProjectCounts, string> = {
  questions: '20',
  blocks: '3',
  screening: '2',
  targetFilters: '2',
  completes: '500',
};

// The live estimate under the calculator: for the counts typed here it prices a project with the
// settings as they stand in the form above (saved or not), for each audience, by the one formula
// in src/domain/price.ts.
export function Estimate({
  settings,
  tariffs,
}: {
  settings: Record<Audience, PriceSettings | null>;
  tariffs: Tariff[];
}) {
  const { LL } = useI18nContext();
  const [counts, setCounts] = useState(START);
  const [tariffId, setTariffId] = useState('');
  const tariffSelect = useId();

  const checked = useMemo(
    () => formErrors(LL, CountsInput, Object.fromEntries(COUNT_KEYS.map((k) => [k, numberFrom(counts[k])]))),
    [LL, counts],
  );
  const discount = tariffs.find((t) => String(t.id) === tariffId)?.discount ?? 0;
  const audienceTitle = (a: Audience) =>
    a === 'researchers' ? LL.pricing.calculator.researchers() : LL.pricing.calculator.issuers();

  return (
    <section aria-labelledby="estimate-title" className="mt-8 flex flex-col gap-4">
      <div>
        <h2 id="estimate-title" className="text-xl font-semibold text-slate-800">
          {LL.pricing.estimate.title()}
        </h2>
        <p className="text-sm text-slate-600">{LL.pricing.estimate.intro()}</p>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6 [&>*]:min-w-0">
        {COUNT_KEYS.map((k) => (
          <Field
            key={k}
            label={LL.pricing.estimate.counts[k]()}
            inputMode="numeric"
            value={counts[k]}
            onChange={(e) => setCounts((c) => ({ ...c, [k]: e.target.value }))}
            error={checked.ok ? undefined : checked.errors[k]}
          />
        ))}
        <div className="flex flex-col gap-1">
          <label htmlFor={tariffSelect} className="text-sm font-medium text-slate-700">
            {LL.pricing.estimate.tariff()}
          </label>
          <select
            id={tariffSelect}
            value={tariffId}
            onChange={(e) => setTariffId(e.target.value)}
            className="w-full min-w-0 rounded border border-slate-300 bg-white px-3 py-2"
          >
            <option value="">{LL.pricing.estimate.noTariff()}</option>
            {tariffs.map((t) => (
              <option key={t.id} value={t.id}>
                {LL.pricing.estimate.tariffOption({ name: t.name, discount: t.discount })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        {AUDIENCES.map((a) => {
          const s = settings[a];
          if (!checked.ok || !s) {
            return (
              <p
                key={a}
                role="status"
                data-testid={`estimate-${a}`}
                className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600"
              >
                {audienceTitle(a)}: {LL.pricing.estimate.invalid()}
              </p>
            );
          }
          return (
            <PriceBreakdownView
              key={a}
              testId={`estimate-${a}`}
              title={audienceTitle(a)}
              price={computePrice(s, checked.output, discount)}
              discountPercent={discount}
              vkPercent={s.vkPercent}
            />
          );
        })}
      </div>
    </section>
  );
}
