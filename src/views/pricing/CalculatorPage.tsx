import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { PriceSettings } from '../../domain/price';
import {
  AudienceSettings,
  AUDIENCES,
  percent,
  SETTING_KEYS,
  type Audience,
  type CalculatorSettings,
  type Tariff,
  type VkPercent,
} from '../../domain/pricing';
import { allTariffs, getCalculator, getVkPercent, saveCalculator, saveVkPercent } from '../../api/tariffs';
import { PageHeader } from '../ui/PageHeader';
import { Button } from '../ui/Button';
import { LoadingScreen } from '../ui/LoadingScreen';
import { notify } from '../ui/toast';
import { errorMessage } from '../games/format';
import { Estimate } from './Estimate';
import { numberFrom } from './formErrors';
import { formErrors } from '../ui/validation';

type SettingKey = (typeof SETTING_KEYS)[number];
type Texts = Record<Audience, Record<SettingKey, string>>;

function toTexts(calc: CalculatorSettings, vk: VkPercent): Texts {
  const one = (a: Audience) =>
    Object.fromEntries(
      SETTING_KEYS.map((k) => [k, String(k === 'vkPercent' ? vk[a] : calc[a][k])]),
    ) as Record<SettingKey, string>;
  return { researchers: one('researchers'), issuers: one('issuers') };
}

/** Checks one audience's column; the schema is the server's (AudienceSettings) plus the VK percent. */
function checkColumn(LL: Parameters<typeof formErrors>[0], texts: Record<SettingKey, string>) {
  const { vkPercent, ...rest } = Object.fromEntries(
    SETTING_KEYS.map((k) => [k, numberFrom(texts[k])]),
  ) as Record<SettingKey, number | ''>;
  const calc = formErrors(LL, AudienceSettings, rest);
  const vk = formErrors(LL, percent, vkPercent);
  const errors: Partial<Record<SettingKey, string>> = { ...(calc.ok ? {} : calc.errors) };
  if (!vk.ok) errors.vkPercent = vk.errors[''];
  const settings: PriceSettings | null = calc.ok && vk.ok ? { ...calc.output, vkPercent: vk.output } : null;
  return { errors, settings };
}

// /calculator (Administrator): the ten settings in two columns, for researchers and for issuers,
// saved with POST /tariffs/calculator (nine of them) and POST /vk/percent (the tenth). Under the
// form, the live estimate prices a project with whatever the form holds now.
export default function CalculatorPage() {
  const { LL } = useI18nContext();
  const [saved, setSaved] = useState<Texts | null>(null);
  const [texts, setTexts] = useState<Texts | null>(null);
  const [tariffs, setTariffs] = useState<Tariff[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    setLoadError(null);
    Promise.all([getCalculator(), getVkPercent()]).then(
      ([calc, vk]) => {
        if (!live) return;
        const t = toTexts(calc, vk);
        setSaved(t);
        setTexts(t);
      },
      (err: unknown) => live && setLoadError(errorMessage(err)),
    );
    // The tariff picker of the estimate is a convenience: the page works without it.
    allTariffs().then(
      (page) => live && setTariffs(page.items),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [version]);

  const columns = useMemo(() => {
    if (!texts) return null;
    return { researchers: checkColumn(LL, texts.researchers), issuers: checkColumn(LL, texts.issuers) };
  }, [LL, texts]);

  const dirtyCalc =
    !!texts &&
    !!saved &&
    AUDIENCES.some((a) => SETTING_KEYS.some((k) => k !== 'vkPercent' && texts[a][k] !== saved[a][k]));
  const dirtyVk = !!texts && !!saved && AUDIENCES.some((a) => texts[a].vkPercent !== saved[a].vkPercent);

  const setText = useCallback((a: Audience, k: SettingKey, value: string) => {
    setTexts((t) => t && { ...t, [a]: { ...t[a], [k]: value } });
    setShowErrors((s) => new Set(s).add(`${a}.${k}`));
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!columns || !texts || busy) return;
    const r = columns.researchers.settings;
    const i = columns.issuers.settings;
    if (!r || !i) {
      setShowErrors(new Set(AUDIENCES.flatMap((a) => SETTING_KEYS.map((k) => `${a}.${k}`))));
      return;
    }
    setBusy(true);
    try {
      // Only what changed is sent; each call is one transaction on the server.
      if (dirtyCalc) {
        const strip = ({ vkPercent: _vk, ...rest }: PriceSettings) => rest;
        await saveCalculator({ researchers: strip(r), issuers: strip(i) });
      }
      if (dirtyVk) await saveVkPercent({ researchers: r.vkPercent, issuers: i.vkPercent });
      setSaved(texts);
      setShowErrors(new Set());
      notify.success(LL.pricing.calculator.saved());
    } catch (err) {
      notify.error(errorMessage(err));
      setVersion((v) => v + 1);
    } finally {
      setBusy(false);
    }
  };

  if (loadError) {
    return (
      <section className="p-6">
        <PageHeader title={LL.pricing.calculator.title()} />
        <div
          role="alert"
          className="flex items-center gap-3 rounded border border-red-200 bg-red-50 px-4 py-3 text-red-800"
        >
          {LL.pricing.calculator.loadFailed({ message: loadError })}
          <Button variant="secondary" onClick={() => setVersion((v) => v + 1)}>
            {LL.common.retry()}
          </Button>
        </div>
      </section>
    );
  }
  if (!texts || !columns) return <LoadingScreen />;

  const hint = (k: SettingKey) =>
    k === 'vkPercent'
      ? LL.pricing.calculator.hints.percent()
      : k === 'questionStep'
        ? LL.pricing.calculator.hints.step()
        : LL.pricing.calculator.hints.money();
  const audienceTitle = (a: Audience) =>
    a === 'researchers' ? LL.pricing.calculator.researchers() : LL.pricing.calculator.issuers();

  return (
    <section className="p-4 sm:p-6">
      <PageHeader title={LL.pricing.calculator.title()} />
      <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
        <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  {LL.pricing.calculator.setting()}
                </th>
                {AUDIENCES.map((a) => (
                  <th key={a} scope="col" className="px-4 py-2 font-medium">
                    {audienceTitle(a)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {SETTING_KEYS.map((k) => (
                <tr key={k} className="border-t border-slate-100 align-top">
                  <th scope="row" className="px-4 py-2 text-left font-normal">
                    <span className="block text-slate-800">{LL.pricing.calculator.settings[k]()}</span>
                    <span className="text-xs text-slate-600">{hint(k)}</span>
                  </th>
                  {AUDIENCES.map((a) => {
                    const error = showErrors.has(`${a}.${k}`) ? columns[a].errors[k] : undefined;
                    const id = `calc-${a}-${k}`;
                    return (
                      <td key={a} className="px-4 py-2">
                        <input
                          id={id}
                          inputMode="numeric"
                          aria-label={LL.pricing.calculator.settingFor({
                            setting: LL.pricing.calculator.settings[k](),
                            audience: audienceTitle(a),
                          })}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${id}-error` : undefined}
                          value={texts[a][k]}
                          onChange={(e) => setText(a, k, e.target.value)}
                          className={`w-full max-w-[12rem] rounded border px-3 py-1.5 tabular-nums outline-none focus:ring-2 focus:ring-indigo-500 ${error ? 'border-red-500' : 'border-slate-300'}`}
                        />
                        {error && (
                          <p id={`${id}-error`} className="mt-1 text-xs text-red-800">
                            {error}
                          </p>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="flex flex-wrap items-center justify-end gap-3">
          {(dirtyCalc || dirtyVk) && (
            <span role="status" className="text-sm text-amber-900">
              {LL.pricing.calculator.unsaved()}
            </span>
          )}
          <Button
            variant="secondary"
            disabled={!(dirtyCalc || dirtyVk) || busy}
            onClick={() => {
              setTexts(saved);
              setShowErrors(new Set());
            }}
          >
            {LL.pricing.calculator.reset()}
          </Button>
          <Button type="submit" disabled={!(dirtyCalc || dirtyVk) || busy}>
            {LL.common.save()}
          </Button>
        </div>
      </form>
      <Estimate
        settings={{ researchers: columns.researchers.settings, issuers: columns.issuers.settings }}
        tariffs={tariffs}
      />
    </section>
  );
}
