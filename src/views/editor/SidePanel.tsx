import { useDeferredValue, useEffect, useId } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { EditorActor } from './editorActor';
import { useEditorView, useSelection, type SideTab } from './EditorUi';
import { ItemPanel } from './panels/ItemPanel';
import { HistoryPanel } from './history/HistoryPanel';
import { ProblemList } from './ProblemList';
import { selectionLabel } from './items';
import { useCheckedAfterOpening } from './useProblems';

// The side panel's tabs: the selected item's fields, the problems, the saved versions and the
// changes not yet on the server.

function Changes() {
  const { LL } = useI18nContext();
  const changes = EditorActor.useSelector((s) => s.context.changes);
  return (
    <ol
      aria-label={LL.editor.page.changes({ count: changes.length })}
      className="list-decimal pl-5 text-slate-700"
    >
      {changes.slice(-50).map((r) => {
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
  );
}

export function SidePanel() {
  const { LL } = useI18nContext();
  const ui = useEditorView();
  const selection = useSelection();
  // The item's fields follow the selection in a render of their own: a click paints the outline's,
  // the canvas's and this header's selection in its own frame, and the fields (a few hundred
  // elements for a question) come right after, interruptible by the next click or key. Until they
  // do, the previous item's fields are inert and hidden from assistive technology, so nothing can
  // type into the item that was just left.
  const shown = useDeferredValue(selection);
  const stale = shown !== selection;
  // Null in the opening frame: the rules run in the render after it (useCheckedAfterOpening).
  const checked = useCheckedAfterOpening();
  // The problem list is drawn for this content (a frame after an edit: useChecked). The benchmark
  // reads the mark to time an edit until its problems show.
  useEffect(() => {
    if (checked) performance.mark('editor:problems');
  }, [checked]);
  const changes = EditorActor.useSelector((s) => s.context.changes.length);
  const draftError = EditorActor.useSelector((s) => s.context.draftError);
  const base = useId();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const selected = selectionLabel(LL, content, selection);
  const tabs: { id: SideTab; label: string }[] = [
    { id: 'item', label: LL.editor.frame.tabs.item() },
    {
      id: 'problems',
      label: checked
        ? LL.editor.frame.tabs.problems({ count: checked.problems.length })
        : LL.editor.frame.tabs.problemsChecking(),
    },
    { id: 'history', label: LL.editor.frame.tabs.history() },
    { id: 'changes', label: LL.editor.frame.tabs.changes({ count: changes }) },
  ];
  const onKeyDown = (e: React.KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === ui.tab);
    const by = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!by) return;
    const next = tabs[(i + by + tabs.length) % tabs.length].id;
    ui.setTab(next);
    document.getElementById(`${base}-tab-${next}`)?.focus();
    e.preventDefault();
  };
  return (
    <aside
      aria-label={LL.editor.frame.tabs.label()}
      className="flex min-h-0 w-full shrink-0 flex-col border-t border-slate-200 bg-white text-sm lg:w-96 lg:border-l lg:border-t-0"
    >
      {draftError && (
        <p role="alert" className="px-3 py-2 text-red-800">
          {LL.editor.page.draftError({ message: draftError })}
        </p>
      )}
      <div
        role="tablist"
        aria-label={LL.editor.frame.tabs.label()}
        className="flex flex-wrap border-b border-slate-200"
        onKeyDown={onKeyDown}
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`${base}-tab-${t.id}`}
            type="button"
            role="tab"
            data-tab={t.id}
            aria-selected={ui.tab === t.id}
            aria-controls={`${base}-panel`}
            tabIndex={ui.tab === t.id ? 0 : -1}
            onClick={() => ui.setTab(t.id)}
            className={`px-3 py-2 ${ui.tab === t.id ? 'border-b-2 border-indigo-600 font-semibold text-indigo-800' : 'text-slate-700 hover:text-slate-900'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        id={`${base}-panel`}
        role="tabpanel"
        aria-labelledby={`${base}-tab-${ui.tab}`}
        // Scrolls when its content is taller than the panel: reachable by keyboard (axe scrollable-region-focusable).
        tabIndex={0}
        className="min-h-0 flex-1 overflow-auto p-3"
        data-item-panel={ui.tab === 'item' || undefined}
      >
        {ui.tab === 'item' && (
          <>
            <h2 className="mb-2 font-semibold text-slate-800">
              {selected || LL.editor.frame.why.noSelection()}
            </h2>
            <div
              inert={stale}
              aria-hidden={stale || undefined}
              aria-busy={stale || undefined}
              data-fields-for={stale ? undefined : (shown?.id ?? undefined)}
            >
              <ItemPanel selection={shown} onSelect={ui.select} />
            </div>
          </>
        )}
        {ui.tab === 'problems' &&
          (checked ? (
            <ProblemList problems={checked.problems} content={checked.content} />
          ) : (
            <p className="text-slate-600">{LL.editor.frame.problems.checking()}</p>
          ))}
        {ui.tab === 'history' && <HistoryPanel />}
        {ui.tab === 'changes' && <Changes />}
      </div>
    </aside>
  );
}
