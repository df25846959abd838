import { CATEGORY_RULES } from '../../domain/content/categories';
import { countLimit, type Page, type Reply } from '../../domain/flow';
import { useTexts } from './Texts';

// One answer (radio group) or several (checkbox group), with the custom "other" answer and pictures.

interface Props {
  page: Page;
  value: Reply;
  onChange: (r: Reply) => void;
  describedBy?: string;
}

export function Choice({ page, value, onChange, describedBy }: Props) {
  const { s } = useTexts();
  const q = page.question;
  const rules = CATEGORY_RULES[q.category];
  const single = rules.single;
  const picked = new Set(value.answers ?? []);
  const otherOn = value.other !== undefined && value.other !== null;
  const name = `q-${q.id}`;
  const toggle = (id: string) => {
    if (single) return onChange({ answers: [id], other: null });
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange({ ...value, answers: page.answers.map((a) => a.id).filter((x) => next.has(x)) });
  };
  const toggleOther = () => {
    if (single) return onChange({ answers: [], other: otherOn ? null : (value.other ?? '') });
    onChange({ ...value, other: otherOn ? null : '' });
  };
  const type = single ? 'radio' : 'checkbox';
  // The answer count limit the panel set is said before Next refuses it, and describes the group.
  const limit = !single && rules.answerLimit && q.answerLimit ? countLimit(page) : null;
  const limitId = `${name}-limit`;
  const described = [limit ? limitId : '', describedBy ?? ''].filter(Boolean).join(' ') || undefined;
  const optionClass =
    'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-300 bg-white px-3 py-2 has-[:checked]:border-indigo-600 has-[:checked]:bg-indigo-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600';
  return (
    <fieldset aria-describedby={described}>
      <legend className="sr-only">{q.text}</legend>
      {limit && (
        <p id={limitId} className="mb-2 text-sm text-slate-700">
          {limit.min === limit.max ? s.pickExactly(limit.min) : s.pickBetween(limit.min, limit.max)}
        </p>
      )}
      <div className="flex flex-col gap-2">
        {page.answers.map((a) => (
          <label key={a.id} className={optionClass}>
            <input
              type={type}
              name={name}
              className="size-5 shrink-0 accent-indigo-600"
              checked={picked.has(a.id)}
              onChange={() => toggle(a.id)}
            />
            <span className="flex min-w-0 flex-col gap-2">
              {a.picture && (
                <img
                  src={a.picture}
                  alt=""
                  className="max-h-40 max-w-full rounded object-contain"
                  loading="lazy"
                />
              )}
              <span className="break-words">{a.text}</span>
            </span>
          </label>
        ))}
        {q.other !== null && rules.other && (
          <div className="flex flex-col gap-2">
            <label className={optionClass}>
              <input
                type={type}
                name={name}
                className="size-5 shrink-0 accent-indigo-600"
                checked={otherOn}
                onChange={toggleOther}
              />
              <span>{q.other || s.other}</span>
            </label>
            {otherOn && (
              <label className="flex flex-col gap-1 pl-8 text-sm">
                <span>{s.otherText}</span>
                <input
                  type="text"
                  className="rounded-md border border-slate-400 px-3 py-2 text-base"
                  value={value.other ?? ''}
                  maxLength={2000}
                  autoFocus
                  onChange={(e) => onChange({ ...value, other: e.target.value })}
                />
              </label>
            )}
          </div>
        )}
      </div>
    </fieldset>
  );
}
