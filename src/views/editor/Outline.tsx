import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useI18nContext } from '../../i18n/i18n-react';
import type { Command } from '../../domain/content/commands';
import { EditorActor } from './editorActor';
import { outlineRows, type OutlineRow, type OutlineRowCache } from './outlineRows';
import { locate } from './items';
import { runTool } from './tools/registry';
import { useToolEnv } from './tools/useToolEnv';
import { unitKey } from '../../domain/translations/units';
import { useTextLanguage, type TextLanguage } from './languages/useTextLanguage';

// The outline: the keyboard and screen-reader path to every item (a WAI-ARIA tree). Arrows move,
// Right/Left open and close, Enter opens the item's panel, Insert adds inside or after, F2 renames,
// Ctrl+D duplicates, Alt+↑/↓ moves, Delete deletes (those four are the editor's shared commands).
// Virtualised: a 1 000-question project keeps about forty rows in the DOM.

export const ROW_HEIGHT = 32;

function RenameField({ row, onDone }: { row: OutlineRow; onDone: (value: string | null) => void }) {
  const { LL } = useI18nContext();
  const [value, setValue] = useState(row.name);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return (
    <input
      ref={ref}
      aria-label={`${LL.editor.frame.renamePrompt()}: ${row.label}`}
      className="min-w-0 flex-1 rounded border border-indigo-400 px-1 text-sm"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') onDone(value);
        else if (e.key === 'Escape') onDone(null);
      }}
      onBlur={() => onDone(value)}
    />
  );
}

function renameCommand(row: OutlineRow, value: string, tl: TextLanguage): Command {
  if (row.kind === 'question' && !tl.isSource)
    return {
      type: 'texts.set',
      language: tl.language,
      texts: [{ key: unitKey('question', row.id, null, 'text'), text: value }],
    };
  if (row.kind === 'questionnaire')
    return { type: 'questionnaire.update', questionnaireId: row.id, patch: { name: value } };
  if (row.kind === 'block') return { type: 'block.update', blockId: row.id, patch: { name: value } };
  return { type: 'question.update', questionId: row.id, patch: { text: value } };
}

const sameRow = (a: OutlineRow, b: OutlineRow) =>
  (Object.keys(b) as (keyof OutlineRow)[]).every((k) => a[k] === b[k]) &&
  Object.keys(a).length === Object.keys(b).length;

export interface RowActions {
  select: (row: OutlineRow) => void;
  toggle: (id: string, open: boolean) => void;
  rename: (row: OutlineRow) => void;
  finishRename: (row: OutlineRow, value: string | null) => void;
}

/**
 * One row of the tree, memoised: a click changes the selection of two rows, and only those two
 * render again (rows are recomputed objects only when the content or the collapsed set changes).
 */
export const Row = memo(function Row({
  row,
  top,
  selected,
  collapsed,
  renaming,
  actions,
}: {
  row: OutlineRow;
  top: number;
  selected: boolean;
  collapsed: boolean;
  renaming: boolean;
  actions: RowActions;
}) {
  return (
    <div
      id={`ol-${row.id}`}
      role="treeitem"
      aria-level={row.level}
      aria-posinset={row.posinset}
      aria-setsize={row.setsize}
      aria-selected={selected}
      aria-expanded={row.hasChildren ? !collapsed : undefined}
      data-kind={row.kind}
      data-id={row.id}
      onClick={() => actions.select(row)}
      onDoubleClick={() => actions.rename(row)}
      className={`absolute left-0 flex w-full cursor-pointer items-center gap-1 pr-2 text-sm ${selected ? 'bg-indigo-100 text-indigo-950' : 'text-slate-800 hover:bg-slate-50'}`}
      style={{ top, height: ROW_HEIGHT, paddingLeft: 8 + (row.level - 1) * 16 }}
    >
      <span
        aria-hidden="true"
        // Fixed and never squeezed by a long label, so the texts of one level start at the same x.
        className="inline-block w-4 shrink-0 text-slate-500"
        onClick={(e) => {
          if (!row.hasChildren) return;
          e.stopPropagation();
          actions.toggle(row.id, collapsed);
        }}
      >
        {row.hasChildren ? (collapsed ? '▸' : '▾') : ''}
      </span>
      {renaming ? (
        <RenameField row={row} onDone={(value) => actions.finishRename(row, value)} />
      ) : (
        <>
          <span
            data-row-text
            className={`min-w-0 truncate ${row.level < 3 ? 'font-medium' : ''} ${row.untranslated ? 'italic' : ''}`}
          >
            {row.label}
          </span>
          {row.untranslated && <UntranslatedMark selected={selected} />}
          {row.category && (
            <span className={`ml-auto shrink-0 text-xs ${selected ? 'text-indigo-900' : 'text-slate-600'}`}>
              {row.category}
            </span>
          )}
        </>
      )}
    </div>
  );
});

export function Outline() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const env = useToolEnv();
  const ui = env.ui;
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const tl = useTextLanguage();
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  // A row keeps its object while nothing in it changed, so an edit renders again only its own row.
  const previous = useRef(new Map<string, OutlineRow>());
  const cache = useRef<{ LL: typeof LL; language: string; rows: OutlineRowCache } | null>(null);
  const language = tl.language;
  const rows = useMemo(() => {
    // Questions' rows are cached by the question object, for this interface and text language.
    if (cache.current?.LL !== LL || cache.current.language !== language)
      cache.current = { LL, language, rows: new WeakMap() };
    const next = outlineRows(LL, content, collapsed, cache.current.rows, language).map((r) => {
      const old = previous.current.get(r.id);
      return old && (old === r || sameRow(old, r)) ? old : r;
    });
    previous.current = new Map(next.map((r) => [r.id, r]));
    return next;
  }, [LL, content, collapsed, language]);
  const scroller = useRef<HTMLDivElement>(null);
  const tree = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const selectedId = ui.selection?.id ?? null;
  const activeIndex = rows.findIndex((r) => r.id === selectedId);

  // A selection made elsewhere (canvas, problem list) opens its ancestors and scrolls into view.
  useEffect(() => {
    if (!ui.selection) return;
    const at = locate(content, ui.selection);
    if (!at) return;
    const qn = content.questionnaires[at.qn];
    const ancestors = [qn.id, ...(at.block !== null && at.question !== null ? [qn.blocks[at.block].id] : [])];
    if (ancestors.some((id) => collapsed.has(id)))
      setCollapsed((c) => new Set([...c].filter((id) => !ancestors.includes(id))));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the selection changes
  }, [ui.selection]);
  useEffect(() => {
    if (activeIndex < 0) return;
    // Only when the row is out of view: scrollToIndex reads the layout and re-renders the tree
    // synchronously, a third of a click on a row that is already on screen.
    const top = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    const y = activeIndex * ROW_HEIGHT;
    if (height === 0 || y < top || y + ROW_HEIGHT > top + height)
      virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  const select = (row: OutlineRow | undefined) => row && ui.select({ kind: row.kind, id: row.id });
  const toggle = (id: string, open: boolean) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (open) next.delete(id);
      else next.add(id);
      return next;
    });

  const onKeyDown = (e: React.KeyboardEvent) => {
    // With a modifier the key is a shared command (Alt+↑ moves, Ctrl+D duplicates): the page's shortcuts take it.
    if (ui.renaming || e.altKey || e.ctrlKey || e.metaKey) return;
    const i = activeIndex;
    const row = rows[i];
    switch (e.key) {
      case 'ArrowDown':
        select(rows[i < 0 ? 0 : Math.min(rows.length - 1, i + 1)]);
        break;
      case 'ArrowUp':
        select(rows[i < 0 ? 0 : Math.max(0, i - 1)]);
        break;
      case 'Home':
        select(rows[0]);
        break;
      case 'End':
        select(rows[rows.length - 1]);
        break;
      case 'ArrowRight':
        if (!row || !row.hasChildren) return;
        if (collapsed.has(row.id)) toggle(row.id, true);
        else select(rows[i + 1]);
        break;
      case 'ArrowLeft':
        if (!row) return;
        if (row.hasChildren && !collapsed.has(row.id)) toggle(row.id, false);
        else if (row.parent)
          ui.select({ kind: row.kind === 'question' ? 'block' : 'questionnaire', id: row.parent });
        break;
      case 'Enter':
        if (!row) return;
        ui.setTab('item');
        // To the item's first field once its fields are drawn (they follow the selection a render
        // later: SidePanel); an item without fields is renamed in place.
        focusFieldsOf(row.id, () => ui.setRenaming(row.id));
        break;
      case 'Insert':
      case '+':
        if (!row) return;
        runTool(env, row.kind === 'questionnaire' ? 'addBlock' : 'addQuestion');
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const finishRename = (row: OutlineRow, value: string | null) => {
    ui.setRenaming(null);
    if (value !== null && value !== row.name)
      actor.send({ type: 'content.edit', command: renameCommand(row, value, tl) });
    tree.current?.focus();
  };

  const readOnly = env.facts.state === 'readOnly';
  // One stable object for the rows (they are memoised): each call reads the latest render's values.
  const latest = useRef({ select, toggle, finishRename, readOnly, setRenaming: ui.setRenaming });
  latest.current = { select, toggle, finishRename, readOnly, setRenaming: ui.setRenaming };
  const actions = useMemo<RowActions>(
    () => ({
      select: (row) => latest.current.select(row),
      toggle: (id, open) => latest.current.toggle(id, open),
      rename: (row) => !latest.current.readOnly && latest.current.setRenaming(row.id),
      finishRename: (row, value) => latest.current.finishRename(row, value),
    }),
    [],
  );
  const activeId = activeIndex >= 0 ? `ol-${rows[activeIndex].id}` : undefined;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <p id="outline-help" className="px-3 py-1 text-xs text-slate-600">
        {LL.editor.frame.outline.help()}
      </p>
      <div ref={scroller} className="min-h-0 flex-1 overflow-auto">
        <div
          ref={tree}
          role="tree"
          tabIndex={0}
          data-editor-items
          aria-label={LL.editor.frame.outline.label()}
          // A tree may not carry aria-readonly (axe: aria-allowed-attr); a read-only project is said by
          // the page's banner, which the tree names as part of its description.
          aria-describedby={readOnly ? 'outline-help editor-readonly-note' : 'outline-help'}
          aria-activedescendant={activeId}
          onKeyDown={onKeyDown}
          onFocus={() => {
            if (activeIndex < 0 && rows[0]) select(rows[0]);
          }}
          className="relative focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index];
            return (
              <Row
                key={row.id}
                row={row}
                top={v.start}
                selected={row.id === selectedId}
                collapsed={collapsed.has(row.id)}
                renaming={ui.renaming === row.id}
                actions={actions}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** Focuses the first field of the item's panel when it shows that item, waiting a few frames. */
function focusFieldsOf(id: string, otherwise: () => void, frames = 10) {
  requestAnimationFrame(() => {
    const panel = document.querySelector(`[data-item-panel] [data-fields-for="${CSS.escape(id)}"]`);
    if (!panel && frames > 0) return focusFieldsOf(id, otherwise, frames - 1);
    const field = panel?.querySelector<HTMLElement>('input, textarea');
    if (field) field.focus();
    else otherwise();
  });
}

/** "not translated": a question's row showing the source's text in another language. */
function UntranslatedMark({ selected }: { selected: boolean }) {
  const { LL } = useI18nContext();
  return (
    <span
      data-untranslated
      className={`shrink-0 rounded bg-amber-100 px-1 text-xs ${selected ? 'text-amber-950' : 'text-amber-900'}`}
    >
      {LL.translations.outline.untranslated()}
    </span>
  );
}
