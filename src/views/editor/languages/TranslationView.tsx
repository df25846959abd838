import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { textUnits, translatedCount, unitText, type TextUnit } from '../../../domain/translations/units';
import { useI18nContext } from '../../../i18n/i18n-react';
import { Button } from '../../ui/Button';
import { useDraftText } from '../panels/controls';
import { useCanEdit, useEdit } from '../panels/usePanel';
import { EditorActor } from '../editorActor';
import { useEditorView } from '../EditorUi';
import { TranslationFiles } from './TranslationFiles';
import { useLanguageName, useTextLanguage, useUnitPlace } from './useTextLanguage';

// The translation view (issue 32): every text of the questionnaire, its source beside its
// translation, "x of y translated", a filter to the untranslated ones and keyboard movement from
// one translation to the next. Virtualised (@tanstack/react-virtual): a 1 000-question project has
// about 7 000 texts, and only the rows on screen are in the DOM. A translation is kept in its
// field while typed and becomes one edit (undoable, saved like any other) when the field is left,
// so a keystroke renders one field, not the list.

const ESTIMATE = 96;

interface RowProps {
  unit: TextUnit;
  index: number;
  value: string;
  where: string;
  fieldLabel: string;
  target: string;
  source: string;
  disabled: boolean;
  onCommit: (unit: TextUnit, text: string) => void;
  onMove: (index: number, by: number) => void;
}

const Row = memo(function Row(p: RowProps) {
  const [text, setText] = useDraftText(p.value);
  const commit = () => {
    if (text !== p.value) p.onCommit(p.unit, text);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const next = e.key === 'Enter' && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey;
    const by = next || (e.altKey && e.key === 'ArrowDown') ? 1 : e.altKey && e.key === 'ArrowUp' ? -1 : 0;
    if (!by) return;
    e.preventDefault();
    commit();
    p.onMove(p.index, by);
  };
  const translated = p.value.trim() !== '';
  return (
    <>
      <p className="flex items-center gap-2 text-xs text-slate-600 md:col-span-2">
        <span>{p.where}</span>
        <span
          aria-hidden="true"
          className={`rounded px-1 ${translated ? 'bg-emerald-50 text-emerald-800' : 'bg-amber-100 text-amber-900'}`}
        >
          {translated ? '✓' : '•'}
        </span>
      </p>
      <p lang={p.source} className="whitespace-pre-wrap break-words text-sm text-slate-800">
        {p.unit.source}
      </p>
      <textarea
        lang={p.target}
        aria-label={p.fieldLabel}
        data-unit={p.unit.key}
        rows={Math.min(6, Math.max(2, p.unit.source.split('\n').length))}
        value={text}
        disabled={p.disabled}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
        className="w-full rounded border border-slate-300 px-2 py-1 text-sm outline-none focus:ring-2 focus:ring-indigo-500 disabled:bg-slate-50"
      />
    </>
  );
});

export function TranslationView() {
  const { LL } = useI18nContext();
  const ui = useEditorView();
  const tl = useTextLanguage();
  const name = useLanguageName();
  const edit = useEdit();
  const canEdit = useCanEdit();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const targets = tl.languages.slice(1);
  // The toolbar's language, or the first translation while the source is chosen there.
  const target = tl.isSource ? (targets[0] ?? null) : tl.language;
  const units = useMemo(() => textUnits(content), [content]);
  const done = useMemo(
    () => (target ? translatedCount(content, units, target) : 0),
    [content, units, target],
  );
  // The filter keeps the texts that were untranslated when it was turned on (or the language
  // changed): a text translated since stays in place, so moving on does not make rows jump.
  const [filter, setFilter] = useState<{ target: string; keys: Set<string> } | null>(null);
  const untranslatedKeys = useCallback(
    (lang: string) =>
      new Set(units.filter((u) => unitText(content, u, lang) === undefined).map((u) => u.key)),
    [content, units],
  );
  useEffect(() => {
    if (filter && target && filter.target !== target) setFilter({ target, keys: untranslatedKeys(target) });
  }, [filter, target, untranslatedKeys]);
  const shown = useMemo(
    () => (filter ? units.filter((u) => filter.keys.has(u.key)) : units),
    [units, filter],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATE,
    overscan: 6,
  });

  const onCommit = useCallback(
    (unit: TextUnit, text: string) => {
      if (target) edit({ type: 'texts.set', language: target, texts: [{ key: unit.key, text }] });
    },
    [edit, target],
  );
  const onMove = useCallback(
    (index: number, by: number) => {
      const to = Math.max(0, Math.min(shown.length - 1, index + by));
      if (to === index) return;
      // A row on screen (or in the overscan) takes the focus at once, so quick presses each move
      // one row; a row further on is scrolled to and focused once drawn.
      const field = fieldAt(scroller.current, to);
      if (field) {
        focusField(field);
        field.scrollIntoView({ block: 'nearest' });
        return;
      }
      virtualizer.scrollToIndex(to, { align: 'auto' });
      focusRow(scroller.current, to);
    },
    [shown.length, virtualizer],
  );

  const headingId = useId();
  const T = LL.translations.view;
  const place = useUnitPlace();
  const multiple = content.questionnaires.length > 1;
  return (
    <section
      aria-labelledby={headingId}
      data-translation-view
      className="flex min-h-[32rem] w-full min-w-0 flex-col bg-white lg:min-h-0 lg:flex-1"
    >
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-2">
        <h2 id={headingId} className="text-base font-semibold text-slate-800">
          {target ? T.title({ name: name(target) }) : T.noTarget()}
        </h2>
        {targets.length > 1 && target && (
          <TargetPicker targets={targets} value={target} onChange={(c) => ui.setLanguage(c)} name={name} />
        )}
        {target && (
          <div className="flex items-center gap-2">
            <progress
              value={done}
              max={Math.max(1, units.length)}
              aria-label={T.progress({ done, total: units.length })}
              className="h-2 w-28 accent-indigo-700"
            />
            <p role="status" data-progress className="text-sm text-slate-700">
              {T.progress({ done, total: units.length })}
            </p>
          </div>
        )}
        {target && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 accent-indigo-600"
              checked={filter !== null}
              onChange={(e) =>
                setFilter(e.target.checked ? { target, keys: untranslatedKeys(target) } : null)
              }
            />
            {T.onlyUntranslated()}
          </label>
        )}
        <Button variant="secondary" className="ml-auto" onClick={() => ui.setTranslating(false)}>
          {T.close()}
        </Button>
      </header>
      {target && <TranslationFiles target={target} canEdit={canEdit} />}
      {target && <p className="px-4 pt-2 text-xs text-slate-600">{T.help()}</p>}
      {target && shown.length > 0 && (
        <div
          className="hidden grid-cols-2 gap-4 px-4 pt-2 text-xs font-semibold text-slate-700 md:grid"
          aria-hidden="true"
        >
          <span>{T.source({ name: name(tl.source) })}</span>
          <span>{T.target({ name: name(target) })}</span>
        </div>
      )}
      {!target || units.length === 0 ? (
        <p className="p-4 text-sm text-slate-700">{target ? T.empty() : T.noTarget()}</p>
      ) : shown.length === 0 ? (
        <p className="p-4 text-sm text-slate-700">{T.allDone()}</p>
      ) : (
        <div
          ref={scroller}
          role="list"
          aria-label={T.list()}
          // Reachable by keyboard when it scrolls (axe: scrollable-region-focusable); its fields are too.
          tabIndex={-1}
          className="relative min-h-0 flex-1 overflow-auto"
          style={{ contain: 'strict' }}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const u = shown[v.index];
              const w = place(u, multiple);
              return (
                <div
                  key={u.key}
                  role="listitem"
                  data-index={v.index}
                  ref={virtualizer.measureElement}
                  className="absolute left-0 top-0 grid w-full grid-cols-1 gap-x-4 gap-y-1 border-b border-slate-100 px-4 py-2 md:grid-cols-2"
                  style={{ transform: `translateY(${v.start}px)` }}
                >
                  <Row
                    unit={u}
                    index={v.index}
                    value={unitText(content, u, target) ?? ''}
                    where={w}
                    fieldLabel={T.fieldLabel({ where: w, name: name(target) })}
                    target={target}
                    source={tl.source}
                    disabled={!canEdit}
                    onCommit={onCommit}
                    onMove={onMove}
                  />
                </div>
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}

function TargetPicker({
  targets,
  value,
  onChange,
  name,
}: {
  targets: readonly string[];
  value: string;
  onChange: (code: string) => void;
  name: (code: string) => string;
}) {
  const { LL } = useI18nContext();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-slate-700">
        {LL.translations.view.language()}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded border border-slate-300 px-2 py-1 text-sm"
      >
        {targets.map((c) => (
          <option key={c} value={c}>
            {name(c)}
          </option>
        ))}
      </select>
    </div>
  );
}

const fieldAt = (list: HTMLElement | null, index: number) =>
  list?.querySelector<HTMLTextAreaElement>(`[data-index="${index}"] textarea`) ?? null;

function focusField(field: HTMLTextAreaElement) {
  field.focus();
  field.setSelectionRange(field.value.length, field.value.length);
}

/** Focuses a row's field once the list has rendered it (a few frames at most after scrolling). */
function focusRow(list: HTMLElement | null, index: number, frames = 10) {
  requestAnimationFrame(() => {
    const field = fieldAt(list, index);
    if (field) focusField(field);
    else if (frames > 0) focusRow(list, index, frames - 1);
  });
}
