import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { useCurrentUser } from '../auth/AuthProvider';
import { Button } from '../ui/Button';
import { EditorActor, useSaveState } from './editorActor';
import { SaveStatus } from './SaveStatus';
import { SourceNotice } from './SourceNotice';
import { ConflictPanel } from './ConflictPanel';
import { Outline } from './Outline';
import { ImportPanel } from './ImportPanel';
import { SidePanel } from './SidePanel';

// /project?pid=…: the editor's core on a minimal page (the graph canvas and the full toolbar come in
// a later issue). It opens the project through the editor machine, shows which copy it opened, the
// save state, read-only, the outline, the rules' problems and the unsaved changes.

function Toolbar() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const state = useSaveState();
  const canUndo = EditorActor.useSelector((s) => s.context.doc.undo.length > 0);
  const canRedo = EditorActor.useSelector((s) => s.context.doc.redo.length > 0);
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const [importing, setImporting] = useState(false);
  const editable = ['saved', 'editing', 'saving', 'offline', 'failed'].includes(state);
  const lastQn = content.questionnaires[content.questionnaires.length - 1];
  const lastBlock = lastQn?.blocks[lastQn.blocks.length - 1];

  useEffect(() => {
    // Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z or Ctrl+Y redoes, Ctrl/Cmd+S saves.
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || (e.target as HTMLElement | null)?.closest('input, textarea')) return;
      const key = e.key.toLowerCase();
      if (key === 'z') actor.send({ type: e.shiftKey ? 'history.redo' : 'history.undo' });
      else if (key === 'y') actor.send({ type: 'history.redo' });
      else if (key === 's') actor.send({ type: 'project.save' });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actor]);

  if (!editable) return null;
  return (
    <>
      <div
        role="toolbar"
        aria-label={LL.editor.page.title()}
        className="flex flex-wrap gap-2 border-b border-slate-200 px-4 py-2"
      >
        <Button variant="secondary" disabled={!canUndo} onClick={() => actor.send({ type: 'history.undo' })}>
          {LL.editor.page.undo()}
        </Button>
        <Button variant="secondary" disabled={!canRedo} onClick={() => actor.send({ type: 'history.redo' })}>
          {LL.editor.page.redo()}
        </Button>
        <Button
          variant="secondary"
          onClick={() => actor.send({ type: 'content.edit', command: { type: 'questionnaire.add' } })}
        >
          {LL.editor.page.addQuestionnaire()}
        </Button>
        <Button
          variant="secondary"
          disabled={!lastQn}
          onClick={() =>
            lastQn &&
            actor.send({ type: 'content.edit', command: { type: 'block.add', questionnaireId: lastQn.id } })
          }
        >
          {LL.editor.page.addBlock()}
        </Button>
        <Button
          variant="secondary"
          disabled={!lastBlock}
          onClick={() =>
            lastBlock &&
            actor.send({ type: 'content.edit', command: { type: 'question.add', blockId: lastBlock.id } })
          }
        >
          {LL.editor.page.addQuestion()}
        </Button>
        <Button variant="secondary" aria-expanded={importing} onClick={() => setImporting((x) => !x)}>
          {LL.editor.import.title()}
        </Button>
        <Button
          disabled={state === 'saved' || state === 'saving'}
          onClick={() => actor.send({ type: 'project.save' })}
        >
          {LL.editor.page.save()}
        </Button>
      </div>
      {importing && <ImportPanel onDone={() => setImporting(false)} />}
    </>
  );
}

function Editor() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const state = useSaveState();
  const name = EditorActor.useSelector((s) => s.context.project?.name ?? '');
  const version = EditorActor.useSelector((s) => s.context.baseVersion);

  useEffect(() => {
    // A closing or hidden tab writes its draft now rather than after the autosave delay.
    const flush = () => actor.send({ type: 'draft.flush' });
    const onVisibility = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [actor]);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <div>
          <h1 className="text-lg font-semibold text-slate-800">{name || LL.editor.page.title()}</h1>
          {state !== 'loading' && state !== 'loadFailed' && (
            <p className="text-xs text-slate-500">{LL.editor.page.version({ version })}</p>
          )}
        </div>
        <SaveStatus />
      </header>
      <SourceNotice />
      {state === 'readOnly' && (
        <p role="note" className="bg-slate-100 px-4 py-2 text-sm text-slate-700">
          {LL.editor.page.readOnly()}
        </p>
      )}
      <Toolbar />
      <ConflictPanel />
      <div className="flex min-h-0 flex-1">
        <main className="min-w-0 flex-1 overflow-auto">
          {state !== 'loading' && state !== 'loadFailed' && (
            <Outline readOnly={state === 'readOnly' || state === 'conflict'} />
          )}
        </main>
        {state !== 'loading' && state !== 'loadFailed' && <SidePanel />}
      </div>
    </div>
  );
}

export default function EditorPage() {
  const { LL } = useI18nContext();
  const user = useCurrentUser();
  const pid = Number(new URLSearchParams(useSearch()).get('pid'));
  if (!Number.isInteger(pid) || pid < 1 || !user) {
    return (
      <p role="alert" className="p-8 text-slate-700">
        {LL.editor.page.noPid()}
      </p>
    );
  }
  return (
    <EditorActor.Provider key={`${user.id}:${pid}`} options={{ input: { pid, userId: user.id } }}>
      <Editor />
    </EditorActor.Provider>
  );
}
