import { useId, useState } from 'react';
import { useI18nContext } from '../../../i18n/i18n-react';
import { useLanguageName, useTextLanguage } from './useTextLanguage';

// The preview's language (issue 32): any of the questionnaire's, to see what its respondents get,
// the source's texts standing in for translations not made yet. It follows the toolbar's language
// until one is picked here.

export function usePreviewLanguage(): [string, (code: string) => void] {
  const tl = useTextLanguage();
  const [picked, setPicked] = useState<string | null>(null);
  const language = picked && tl.languages.includes(picked) ? picked : tl.language;
  return [language, setPicked];
}

export function PreviewLanguage({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const { LL } = useI18nContext();
  const tl = useTextLanguage();
  const name = useLanguageName();
  const id = useId();
  if (tl.languages.length < 2) return null;
  return (
    <div className="mb-2 flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-slate-700">
        {LL.translations.preview.language()}
      </label>
      <select
        id={id}
        value={value}
        data-preview-language
        onChange={(e) => onChange(e.target.value)}
        className="rounded border border-slate-300 px-2 py-1"
      >
        {tl.languages.map((c) => (
          <option key={c} value={c}>
            {name(c)}
          </option>
        ))}
      </select>
    </div>
  );
}
