import { useMemo } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { checkContent } from '../../domain/content/rules';
import { EditorActor } from './editorActor';
import { problemText } from './problemText';
import { HistoryPanel } from './history/HistoryPanel';

/** What the rules find in the content now, and the changes not yet on the server. */
export function SidePanel() {
  const { LL } = useI18nContext();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const type = EditorActor.useSelector((s) => s.context.project?.type ?? 1);
  const serverProblems = EditorActor.useSelector((s) => s.context.problems);
  const changes = EditorActor.useSelector((s) => s.context.changes);
  const draftError = EditorActor.useSelector((s) => s.context.draftError);
  const problems = useMemo(() => {
    const local = checkContent(content, { projectType: type });
    const seen = new Set(local.map((p) => `${p.rule}@${p.path}`));
    return [...local, ...serverProblems.filter((p) => !seen.has(`${p.rule}@${p.path}`))];
  }, [content, type, serverProblems]);
  return (
    <aside className="w-80 shrink-0 overflow-auto border-l border-slate-200 p-4 text-sm">
      {draftError && (
        <p role="alert" className="mb-2 text-red-700">
          {LL.editor.page.draftError({ message: draftError })}
        </p>
      )}
      <h2 className="font-semibold">{LL.editor.page.problems({ count: problems.length })}</h2>
      {problems.length === 0 ? (
        <p className="text-slate-500">{LL.editor.page.noProblems()}</p>
      ) : (
        <ul aria-label={LL.editor.page.problems({ count: problems.length })} className="mt-1 list-disc pl-4">
          {problems.slice(0, 50).map((p, i) => (
            <li
              key={i}
              data-code={p.code ?? p.rule}
              className={p.severity === 'error' ? 'text-red-700' : 'text-amber-800'}
            >
              {problemText(LL, p)}
            </li>
          ))}
        </ul>
      )}
      <h2 className="mt-4 font-semibold">{LL.editor.page.changes({ count: changes.length })}</h2>
      <ol
        aria-label={LL.editor.page.changes({ count: changes.length })}
        className="mt-1 list-decimal pl-4 text-slate-600"
      >
        {changes.slice(-20).map((r) => {
          const what = r.payload.label
            ? `${LL.editor.changeLog[r.code]()}: ${r.payload.label}`
            : LL.editor.changeLog[r.code]();
          const text =
            r.payload.kind === 'undo'
              ? LL.editor.changeLog.undo({ text: what })
              : r.payload.kind === 'redo'
                ? LL.editor.changeLog.redo({ text: what })
                : what;
          return (
            <li key={r.seq} data-code={r.code}>
              {text}
            </li>
          );
        })}
      </ol>
      {/* Until the editor's frame gives the history its own side panel tab. */}
      <div className="mt-4">
        <HistoryPanel />
      </div>
    </aside>
  );
}
