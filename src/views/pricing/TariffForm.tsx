import { useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { TariffBody, type Tariff } from '../../domain/pricing';
import { ApiError } from '../../api/client';
import { createTariff, updateTariff } from '../../api/tariffs';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { errorMessage } from '../games/format';
import { numberFrom } from './formErrors';
import { formErrors } from '../ui/validation';

/** Creates a tariff, or changes one: a name and a whole-percent discount. */
export function TariffForm({ tariff, onDone }: { tariff?: Tariff; onDone: (saved?: Tariff) => void }) {
  const { LL } = useI18nContext();
  const [name, setName] = useState(tariff?.name ?? '');
  const [discount, setDiscount] = useState(tariff ? String(tariff.discount) : '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const checked = formErrors(LL, TariffBody, { name, discount: numberFrom(discount) });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    setBusy(true);
    try {
      const saved = tariff
        ? await updateTariff({ tariffId: tariff.id, ...checked.output })
        : await createTariff(checked.output);
      notify.success(
        tariff
          ? LL.pricing.tariffs.form.saved({ name: saved.name })
          : LL.pricing.tariffs.form.created({ name: saved.name }),
      );
      onDone(saved);
    } catch (err) {
      const field = err instanceof ApiError ? (err.body as { field?: string } | null)?.field : undefined;
      if (field) setErrors({ [field]: errorMessage(err) });
      else notify.error(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      <Field
        label={LL.pricing.tariffs.form.name()}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        maxLength={100}
      />
      <div className="flex flex-col gap-1">
        <Field
          label={LL.pricing.tariffs.form.discount()}
          inputMode="numeric"
          value={discount}
          onChange={(e) => setDiscount(e.target.value)}
          error={errors.discount}
        />
        <p className="text-xs text-slate-600">{LL.pricing.tariffs.form.discountHint()}</p>
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone()}>
          {LL.common.cancel()}
        </Button>
        <Button type="submit" disabled={busy}>
          {tariff ? LL.common.save() : LL.common.create()}
        </Button>
      </div>
    </form>
  );
}
