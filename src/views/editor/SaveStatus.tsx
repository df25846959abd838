import { useI18nContext } from '../../i18n/i18n-react';
import { Button } from '../ui/Button';
import { EditorActor, useSaveState } from './editorActor';

/** Where the content stands: saved, unsaved, saving, waiting for the network, failed, read-only. */
export function SaveStatus() {
  const { LL } = useI18nContext();
  const state = useSaveState();
  const error = EditorActor.useSelector((s) => s.context.error);
  const online = EditorActor.useSelector((s) => s.context.online);
  const problems = EditorActor.useSelector((s) => s.context.problems.length);
  const actor = EditorActor.useActorRef();
  const text = {
    loading: LL.editor.state.loading(),
    loadFailed: LL.editor.page.loadFailed({ message: error ?? '' }),
    readOnly: LL.editor.state.readOnly(),
    saved: LL.editor.state.saved(),
    editing: LL.editor.state.unsaved(),
    saving: LL.editor.state.saving(),
    offline: LL.editor.state.offline(),
    merging: LL.versions.merge.status(),
    conflict: LL.editor.state.conflict(),
    // Refused by the rules before sending: there is no server message, only the problems to fix.
    failed: error
      ? LL.editor.state.failed({ message: error })
      : LL.editor.state.failedRules({ count: problems }),
  }[state];
  const tone =
    state === 'failed' || state === 'loadFailed'
      ? 'text-red-800'
      : state === 'offline' || state === 'conflict'
        ? 'text-amber-900'
        : 'text-slate-600';
  return (
    <div className="flex items-center gap-2">
      <p
        role="status"
        aria-live="polite"
        data-state={state}
        data-online={online}
        className={`text-sm ${tone}`}
      >
        {text}
      </p>
      {state === 'saving' && (
        <span
          role="progressbar"
          aria-label={LL.editor.state.saving()}
          className="h-1 w-16 animate-pulse rounded bg-indigo-400"
        />
      )}
      {state === 'failed' && (
        <Button variant="secondary" onClick={() => actor.send({ type: 'save.retry' })}>
          {LL.editor.page.retry()}
        </Button>
      )}
      {state === 'loadFailed' && (
        <Button variant="secondary" onClick={() => actor.send({ type: 'load.retry' })}>
          {LL.editor.page.retry()}
        </Button>
      )}
    </div>
  );
}
