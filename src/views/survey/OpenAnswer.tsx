import { useId } from 'react';
import { textLimits, type Page, type Reply } from '../../domain/flow';
import { useTexts } from './Texts';

// An open answer. When the question sets a length (textLength), the box takes its maximum and a live
// counter shows how much is typed; the minimum is said beside it. The same limits are checked by the
// flow (checkReply), so the runner, the preview and the server refuse the same texts.

interface Props {
  page: Page;
  value: Reply;
  onChange: (r: Reply) => void;
  describedBy?: string;
}

export function OpenAnswer({ page, value, onChange, describedBy }: Props) {
  const { s } = useTexts();
  const id = useId();
  const q = page.question;
  const limits = textLimits(q);
  const counted = q.textLength != null;
  const text = value.text ?? '';
  // The counter follows the box (maxLength counts every character typed); the check trims.
  const trimmed = text.trim().length;
  const short = trimmed > 0 && trimmed < limits.min;
  const described = [counted ? `${id}-count` : '', describedBy ?? ''].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-text`} className="text-sm text-slate-700">
        {s.openText}
      </label>
      <textarea
        id={`${id}-text`}
        rows={4}
        maxLength={limits.max}
        aria-describedby={described || undefined}
        className="w-full rounded-md border border-slate-400 px-3 py-2 text-base"
        value={text}
        onChange={(e) => onChange({ text: e.target.value })}
      />
      {counted && (
        <p id={`${id}-count`} className="flex flex-wrap justify-between gap-x-3 text-sm text-slate-700">
          <span>{limits.min > 0 ? s.lengthHint(limits.min, limits.max) : ''}</span>
          <span className={short ? 'font-medium text-red-800' : ''} data-testid="text-counter">
            <span className="sr-only">{s.counterLabel}: </span>
            {s.counter(text.length, limits.max)}
          </span>
        </p>
      )}
    </div>
  );
}
