import * as v from 'valibot';
import { useMemo } from 'react';
import { TEXT_MAX } from '../../../domain/content/limits';
import { callbackUrl as callbackUrlSchema } from '../../../domain/content/model';
import { useI18nContext } from '../../../i18n/i18n-react';
import { EditorActor } from '../editorActor';
import { TextField } from './controls';
import { findBlockPlace } from './locate';
import { CustomParamsField } from './sections/CommonFields';
import { ReviewNote, useReview } from './review';
import { BlockCallbacks } from './BlockCallbacks';
import { useCanEdit, useEdit, usePathLabel, usePermissions } from './usePanel';

// The block panel: its name (anyone who may edit), customParams and callbackUrl (only holders of
// project-editor.change-block-settings; code 009 in the change-log).
export function BlockPanel({ id }: { id: string }) {
  const { LL } = useI18nContext();
  const edit = useEdit();
  const canEdit = useCanEdit();
  const perms = usePermissions();
  const pathLabel = usePathLabel();
  const review = useReview();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const pid = EditorActor.useSelector((s) => s.context.pid);
  const place = useMemo(() => findBlockPlace(content, id), [content, id]);
  if (!place) return <p className="text-sm text-slate-600">{LL.panels.missing()}</p>;
  const b = place.block;
  const settingsDisabled = (!canEdit && !review.active) || !perms.blockSettings;
  // On moderation the reviewer's fields are saved by themselves (review.ts); otherwise they are edits.
  const saveSettings = (patch: { customParams?: string; callbackUrl?: string }) =>
    review.active
      ? void review.save('block', b.id, patch)
      : edit({ type: 'block.update', blockId: b.id, patch });
  return (
    <div className="flex flex-col gap-3" data-panel="block" data-block-id={b.id}>
      <header>
        <p className="text-xs text-slate-600">
          {pathLabel({
            ...(content.questionnaires.length > 1 ? { questionnaire: place.qn + 1 } : {}),
            block: place.b + 1,
          })}
        </p>
        <p className="text-xs text-slate-600">{LL.panels.block.counts({ count: b.questions.length })}</p>
      </header>
      <TextField
        label={LL.panels.block.name()}
        value={b.name}
        maxLength={TEXT_MAX.name}
        disabled={!canEdit}
        onCommit={(name) => edit({ type: 'block.update', blockId: b.id, patch: { name } })}
      />
      {!perms.blockSettings && <p className="text-xs text-slate-600">{LL.panels.block.readOnly()}</p>}
      <CustomParamsField
        value={review.value(b.id, 'customParams', b.customParams)}
        disabled={settingsDisabled}
        readOnlyNote={null}
        onCommit={(customParams) => saveSettings({ customParams })}
      />
      <TextField
        label={LL.panels.block.callbackUrl()}
        value={review.value(b.id, 'callbackUrl', b.callbackUrl)}
        placeholder="https://example.com/callback"
        disabled={settingsDisabled}
        inputProps={{ type: 'url', 'data-testid': 'callback-url' }}
        check={(s) => (v.safeParse(callbackUrlSchema, s).success ? null : LL.validation.url())}
        onCommit={(callbackUrl) => saveSettings({ callbackUrl: callbackUrl.trim() })}
      />
      {review.active && <ReviewNote review={review} />}
      <BlockCallbacks
        pid={pid}
        blockId={b.id}
        hasUrl={!!review.value(b.id, 'callbackUrl', b.callbackUrl)}
        mayChange={perms.blockSettings}
      />
      {canEdit && (
        <button
          type="button"
          className="self-start rounded border border-dashed border-indigo-400 px-3 py-1 text-sm text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          onClick={() => edit({ type: 'question.add', blockId: b.id })}
        >
          + {LL.panels.block.addQuestion()}
        </button>
      )}
    </div>
  );
}
