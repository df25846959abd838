import { useI18nContext } from '../../i18n/i18n-react';
import type { Problem } from '../../domain/content/problems';
import type { ProjectContent } from '../../domain/content/model';
import { useEditorView } from './EditorUi';
import { pathLabel, selectionOfPath } from './items';
import { problemText } from './problemText';

// The rules' problems, each naming its item ("Questionnaire 1 › Block 3 › Question 12: …"). A click
// selects the item on the canvas and in the outline.

const SHOWN = 200;

/** `content`: the content the problems were found in (their paths are indexes into it). */
export function ProblemList({ problems, content }: { problems: Problem[]; content: ProjectContent }) {
  const { LL, locale } = useI18nContext();
  const ui = useEditorView();
  if (problems.length === 0) return <p className="text-slate-600">{LL.editor.frame.problems.none()}</p>;
  return (
    <ul
      aria-label={LL.editor.frame.tabs.problems({ count: problems.length })}
      className="flex flex-col gap-1"
    >
      {problems.slice(0, SHOWN).map((p, i) => {
        const target = selectionOfPath(content, p.path);
        return (
          <li key={`${p.rule}@${p.path}@${i}`} data-code={p.code ?? p.rule} data-rule={p.rule}>
            <button
              type="button"
              onClick={() => target && ui.select(target)}
              className={`w-full rounded px-2 py-1 text-left hover:bg-slate-100 ${p.severity === 'error' ? 'text-red-800' : 'text-amber-900'}`}
            >
              <span className="font-medium">{pathLabel(LL, content, p.path)}:</span>{' '}
              {problemText(LL, p, locale)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
