import { useMemo } from 'react';
import { REDIRECT_KINDS, type Redirect, type RedirectKind } from '../../../domain/content/model';
import { useI18nContext } from '../../../i18n/i18n-react';
import { EditorActor } from '../editorActor';
import type { SelectionKind } from '../selection';
import { Select } from './controls';
import { findQuestionPlace, questionsOf } from './locate';
import { usePanelContext } from './PanelContext';
import { useEdit } from './usePanel';

// Where the survey goes after a question (or after one of its answers): the nine target kinds of
// spec section 3. Existing targets are listed by number and name; a "new…" kind creates its target
// in the same edit (redirect.set does) and selects it, so the user goes on to fill it in.

const NEW_KIND_SELECTS: Partial<Record<RedirectKind, SelectionKind>> = {
  newQuestionnaire: 'questionnaire',
  newBlock: 'block',
  newQuestionInBlock: 'question',
  newQuestion: 'question',
};

const shorten = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);

export function RedirectPicker({
  questionId,
  answerId,
  redirect,
  label,
  disabled,
}: {
  questionId: string;
  answerId?: string;
  redirect: Redirect | null;
  label: string;
  disabled?: boolean;
}) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const actor = EditorActor.useActorRef();
  const { onSelect } = usePanelContext();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const place = useMemo(() => findQuestionPlace(content, questionId), [content, questionId]);

  // "new…" kinds show, once set, like their existing twins: the target is an item now.
  const shownKind: RedirectKind | 'none' = redirect ? redirect.kind : 'none';

  const targets = useMemo(() => {
    if (!place || !redirect) return [];
    const P = LL.panels.path;
    const qText = (t: string) => (t.trim() ? `: ${shorten(t)}` : '');
    switch (redirect.kind) {
      case 'questionnaire':
      case 'newQuestionnaire':
        return content.questionnaires
          .map((qn, i) => ({ id: qn.id, label: P.questionnaire({ n: i + 1 }) }))
          .filter((t) => t.id !== place.questionnaire.id);
      case 'block':
      case 'newBlock':
        return place.questionnaire.blocks.map((b, i) => ({
          id: b.id,
          label: `${P.block({ n: i + 1 })}${b.name ? `: ${shorten(b.name)}` : ''}`,
        }));
      case 'questionInBlock':
      case 'newQuestionInBlock':
        return questionsOf(place.questionnaire)
          .filter((x) => x.b === place.b && x.question.id !== questionId)
          .map((x) => ({
            id: x.question.id,
            label: `${P.question({ n: x.number })}${qText(x.question.text)}`,
          }));
      case 'question':
      case 'newQuestion':
        return content.questionnaires.flatMap((qn, i) =>
          questionsOf(qn)
            .filter((x) => x.question.id !== questionId)
            .map((x) => ({
              id: x.question.id,
              label: `${content.questionnaires.length > 1 ? `${P.questionnaire({ n: i + 1 })}${P.separator()}` : ''}${P.question({ n: x.number })}${qText(x.question.text)}`,
            })),
        );
      default:
        return [];
    }
  }, [LL, content, place, redirect, questionId]);

  const set = (r: Redirect | null) =>
    edit({ type: 'redirect.set', questionId, ...(answerId ? { answerId } : {}), redirect: r });

  const chooseKind = (kind: RedirectKind | 'none') => {
    if (kind === 'none') return set(null);
    const creates = NEW_KIND_SELECTS[kind];
    set({ kind, target: null });
    if (creates) {
      // The edit is applied synchronously: read the id of the item it created and go there.
      const after = actor.getSnapshot().context.doc.content;
      const q = findQuestionPlace(after, questionId)?.question;
      const holder = answerId ? q?.answers.find((a) => a.id === answerId) : q;
      const target = holder?.redirect?.target;
      if (target) onSelect({ kind: creates, id: target });
    }
  };

  const kindOptions = [
    { value: 'none' as const, label: LL.panels.redirect.none() },
    ...REDIRECT_KINDS.map((k) => ({ value: k, label: LL.panels.redirect.kinds[k]() })),
  ];
  const needsTarget = redirect && redirect.kind !== 'completeBlock';

  return (
    <fieldset className="flex min-w-0 flex-col gap-2" disabled={disabled}>
      <legend className="mb-1 text-xs font-medium text-slate-700">{label}</legend>
      <Select
        label={`${label}: ${LL.panels.redirect.kind()}`}
        hideLabel
        value={shownKind}
        options={kindOptions}
        onChange={chooseKind}
        disabled={disabled}
      />
      {needsTarget && (
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <Select
              label={`${label}: ${LL.panels.redirect.target()}`}
              hideLabel
              value={redirect.target ?? ''}
              options={[
                {
                  value: '',
                  label: targets.length ? LL.panels.redirect.choose() : LL.panels.redirect.noTargets(),
                },
                ...targets.map((t) => ({ value: t.id, label: t.label })),
              ]}
              onChange={(id) => id && set({ kind: redirect.kind, target: id })}
              disabled={disabled}
            />
          </div>
          {redirect.target && (
            <button
              type="button"
              className="shrink-0 rounded px-2 py-1 text-xs text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
              onClick={() => {
                const id = redirect.target!;
                const kind: SelectionKind = content.questionnaires.some((q) => q.id === id)
                  ? 'questionnaire'
                  : content.questionnaires.some((q) => q.blocks.some((b) => b.id === id))
                    ? 'block'
                    : 'question';
                onSelect({ kind, id });
              }}
            >
              {LL.panels.redirect.open()}
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}
