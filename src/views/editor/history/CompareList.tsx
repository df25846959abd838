import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { CompareEntry, FieldCompare, NamedItem, WordPart } from '../../../domain/content/compare';
import { useI18nContext } from '../../../i18n/i18n-react';
import { fieldName, itemName, valueText } from './itemText';

// The history's comparison of a version with the content on screen (issue #26): each item's headline
// as before, then each changed field then and now. Removed words and old values are <del>, added ones
// <ins>, each with a visually hidden word ("removed:", "added:", "then:", "now:") so a screen reader
// says what the strike-through and the colour show.

export const COMPARE_SHOWN = 50;

const sr = 'sr-only';
const delClass = 'rounded-sm px-0.5 bg-red-50 text-red-900 line-through decoration-red-700';
const insClass = 'rounded-sm px-0.5 bg-emerald-50 text-emerald-900 underline decoration-emerald-700';

export function CompareList({ LL, entries }: { LL: TranslationFunctions; entries: CompareEntry[] }) {
  const { locale } = useI18nContext();
  return (
    <ul className="mt-1 space-y-1.5 text-slate-700" data-testid="version-diff">
      {entries.slice(0, COMPARE_SHOWN).map((e) => (
        <li key={`${e.change}:${e.key}`} data-change={e.change} data-key={e.key} className="break-words">
          <p>{headline(LL, e, locale)}</p>
          {(e.fields.length > 0 || e.added.length > 0 || e.removed.length > 0) && (
            <dl className="mt-0.5 space-y-1 border-l-2 border-slate-200 pl-2 text-xs">
              {e.fields.map((f) => (
                <div key={f.field} data-field={f.field}>
                  <dt className="font-medium text-slate-600">{fieldName(LL, f.field, locale)}</dt>
                  <dd>
                    <FieldValue LL={LL} f={f} />
                  </dd>
                </div>
              ))}
              <Named LL={LL} items={e.removed} kind="answer" op="removed" />
              <Named LL={LL} items={e.added} kind="answer" op="added" />
              <Named LL={LL} items={e.removed} kind="statement" op="removed" />
              <Named LL={LL} items={e.added} kind="statement" op="added" />
            </dl>
          )}
        </li>
      ))}
      {entries.length > COMPARE_SHOWN && (
        <li className="text-slate-600">
          {LL.versions.history.more({ count: entries.length - COMPARE_SHOWN })}
        </li>
      )}
    </ul>
  );
}

function headline(LL: TranslationFunctions, e: CompareEntry, locale: string): string {
  const what = itemName(LL, e.kind, e.label);
  switch (e.change) {
    case 'added':
      return LL.versions.history.onlyNow({ what });
    case 'removed':
      return LL.versions.history.onlyThen({ what });
    case 'moved':
      return LL.versions.history.moved({ what });
    case 'changed': {
      const names = e.fields.map((f) => fieldName(LL, f.field, locale));
      const lists = [...e.added, ...e.removed];
      if (lists.some((x) => x.kind === 'answer')) names.push(fieldName(LL, 'answers'));
      if (lists.some((x) => x.kind === 'statement')) names.push(fieldName(LL, 'statements'));
      return LL.versions.history.changed({ what, fields: names.join(', ') });
    }
  }
}

function FieldValue({ LL, f }: { LL: TranslationFunctions; f: FieldCompare }) {
  const d = LL.versions.history.detail;
  if (f.type === 'words') return <Words LL={LL} parts={f.parts} />;
  return (
    <>
      <del className={delClass}>
        <span className={sr}>{d.then()} </span>
        {valueText(LL, f.field, f.before)}
      </del>
      <span aria-hidden="true"> → </span>
      <ins className={insClass}>
        <span className={sr}>{d.now()} </span>
        {valueText(LL, f.field, f.after)}
      </ins>
    </>
  );
}

function Words({ LL, parts }: { LL: TranslationFunctions; parts: WordPart[] }) {
  const d = LL.versions.history.detail;
  if (parts.length === 0) return <span>{LL.versions.empty()}</span>;
  return (
    <span className="whitespace-pre-wrap">
      {parts.map((p, i) =>
        p.op === 'same' ? (
          <span key={i}>{p.text}</span>
        ) : p.op === 'removed' ? (
          <del key={i} className={delClass}>
            <span className={sr}>{d.removed()} </span>
            {p.text}
          </del>
        ) : (
          <ins key={i} className={insClass}>
            <span className={sr}>{d.added()} </span>
            {p.text}
          </ins>
        ),
      )}
    </span>
  );
}

function Named({
  LL,
  items,
  kind,
  op,
}: {
  LL: TranslationFunctions;
  items: NamedItem[];
  kind: NamedItem['kind'];
  op: 'removed' | 'added';
}) {
  const mine = items.filter((x) => x.kind === kind);
  if (mine.length === 0) return null;
  const d = LL.versions.history.detail;
  const title =
    kind === 'answer'
      ? op === 'added'
        ? d.answersAdded()
        : d.answersRemoved()
      : op === 'added'
        ? d.statementsAdded()
        : d.statementsRemoved();
  const Tag = op === 'added' ? 'ins' : 'del';
  return (
    <div data-list={`${kind}-${op}`}>
      <dt className="font-medium text-slate-600">{title}</dt>
      {mine.map((x, i) => (
        <dd key={i}>
          <Tag className={op === 'added' ? insClass : delClass}>
            <span className={sr}>{op === 'added' ? d.added() : d.removed()} </span>
            {valueText(LL, 'text', x.label)}
          </Tag>
        </dd>
      ))}
    </div>
  );
}
