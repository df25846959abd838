import { useMemo } from 'react';
import type { Question } from '../../../../domain/content/model';
import { mappingProblems, type MappingProblem } from '../../../../domain/players';
import { useI18nContext } from '../../../../i18n/i18n-react';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';

// Beside "Fields to write": which answers of this question cannot become a value of a mapped field
// of the player's record (gender, age, city, education), because the server stores those nowhere
// (src/domain/players.ts decides, for the server and for this warning alike).

const MAX_LISTED = 5;

function message(LL: TranslationFunctions, locale: string, p: MappingProblem): string {
  const T = LL.players.mapping;
  switch (p.code) {
    case 'never':
      return T.never({ field: p.field });
    case 'freeText':
      return T.freeText({ field: p.field });
    case 'range':
      return T.range({ field: p.field, min: p.min, max: p.max });
    case 'answers': {
      const [open, close] = locale === 'ru' ? ['«', '»'] : ['“', '”'];
      const shown = p.answers.slice(0, MAX_LISTED).map((a) => `${open}${a || '—'}${close}`);
      if (p.answers.length > MAX_LISTED) shown.push('…');
      return T.answers({ field: p.field, answers: shown.join(', ') });
    }
  }
}

export function MappingWarnings({ question }: { question: Question }) {
  const { LL, locale } = useI18nContext();
  const problems = useMemo(() => mappingProblems(question), [question]);
  if (problems.length === 0) return null;
  return (
    <div
      className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900"
      data-testid="db-mapping-warnings"
    >
      {problems.map((p) => (
        <div key={p.field} className="mt-1 first:mt-0">
          <p className="font-medium">{LL.players.mapping.title({ field: p.field })}</p>
          <p>{message(LL, locale, p)}</p>
        </div>
      ))}
    </div>
  );
}
