import { useId } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { languageName } from '../../domain/content/languages';

// The downloads' labels (issue 32): which of the questionnaire's languages the files' question and
// answer texts are in (the server's labels=; the source by default). Shown only for a questionnaire
// in several languages.

export function LabelsSelect({
  languages,
  value,
  onChange,
}: {
  languages: string[];
  value: string;
  onChange: (code: string) => void;
}) {
  const { LL, locale } = useI18nContext();
  const id = useId();
  if (languages.length < 2) return null;
  return (
    <span className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-slate-700">
        {LL.reports.labelsLanguage()}
      </label>
      <select
        id={id}
        className="rounded border border-slate-300 bg-white px-2 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-500"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {languages.map((code) => (
          <option key={code} value={code}>
            {languageName(code, locale)}
          </option>
        ))}
      </select>
    </span>
  );
}
