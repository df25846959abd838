import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useState,
  type ComponentType,
} from 'react';
import { useSearch } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { useCurrentUser } from '../auth/AuthProvider';
import { notify } from '../ui/toast';
import { EditorActor, useSaveState } from './editorActor';
import { EditorUiProvider, useEditorView, useSelection } from './EditorUi';
import { SaveStatus as SaveStatusPart } from './SaveStatus';
import { SourceNotice as SourceNoticePart } from './SourceNotice';
import { ConflictPanel as ConflictPanelPart } from './ConflictPanel';
import { Outline as OutlinePart } from './Outline';
import { ImportPanel } from './ImportPanel';
import { TranslationView } from './languages/TranslationView';
import { PreviewLanguage, usePreviewLanguage } from './languages/PreviewLanguage';
import { SidePanel as SidePanelPart } from './SidePanel';
import { PriceFooter as PriceFooterPart } from './panels/PriceFooter';
import { Toolbar as ToolbarPart, useShortcuts } from './tools/Toolbar';
import { CommandMenu } from './tools/CommandMenu';
import { editReason } from './tools/availability';
import { useToolEnv } from './tools/useToolEnv';
import { localReadUnderWay, prefetchingEditorMachine, prefetchProject, takeOpenedLocally } from './prefetch';
import { appDB } from '../../db/AppDB';
import { layoutOf } from './canvas/positions';
import { afterPaint } from '../ui/afterPaint';
import { removePicture } from '../../db/pictureKeys';
import { keepPicture, takeOpeningFrame } from './openingPicture';

// /project?pid=…: the editor's frame. The toolbar's commands, the outline (keyboard path to every
// item), the graph canvas (cytoscape, its own chunk, asked for once the outline is painted), the side panel's tabs, the preview pane, all
// sharing one selection (EditorUi) and reading the content through the editor machine.

// The canvas's chunk (cytoscape, ≈ 140 KB gzip, more than the rest of the editor) is asked for only
// once the loaded outline has been painted (afterPaint, as the report does with its chart chunk):
// asked for with the page, it shared the link with the editor's own chunks and, on a slow one,
// arrived before the outline, which waited behind it (issue 34). Not React.lazy: a Suspense
// boundary revealing its content while another waits is held back by React for up to 300 ms.
type CanvasComponent = ComponentType;
prefetchProject();
let canvasLoading: Promise<CanvasComponent> | null = null;
function loadCanvas(): Promise<CanvasComponent> {
  canvasLoading ??= import('./canvas/Canvas').then((m) => m.default as CanvasComponent);
  // A failed chunk (offline before it was ever cached) leaves the "loading" line and the outline
  // working; the next editor opened asks for it again.
  canvasLoading.catch(() => (canvasLoading = null));
  return canvasLoading;
}
/**
 * The canvas component once the loaded outline has been painted and the canvas's chunk has
 * arrived: the outline and the toolbar answer first, the canvas builds in a task of its own (with
 * the outline, the rules and the first slice of the graph in one task it went past 50 ms).
 */
function useCanvasModule(loaded: boolean): CanvasComponent | null {
  const [Canvas, setCanvas] = useState<CanvasComponent | null>(null);
  useEffect(() => {
    if (Canvas || !loaded) return;
    let live = true;
    const cancel = afterPaint(() => {
      loadCanvas().then(
        (c) => live && setCanvas(() => memo(c)),
        () => {},
      );
    });
    return () => {
      live = false;
      cancel();
    };
  }, [Canvas, loaded]);
  return Canvas;
}
const SurveyPreview = lazy(() => import('../survey/Preview'));

// The frame's parts take no props and read what they show themselves: memoised, the frame rendering
// again (a toggle, renaming) does not render them all again.
const SaveStatus = memo(SaveStatusPart);
const SourceNotice = memo(SourceNoticePart);
const ConflictPanel = memo(ConflictPanelPart);
const Outline = memo(OutlinePart);
const SidePanel = memo(SidePanelPart);
const PriceFooter = memo(PriceFooterPart);
const Toolbar = memo(ToolbarPart);

function Preview() {
  const { LL } = useI18nContext();
  const selection = useSelection();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const [language, setLanguage] = usePreviewLanguage();
  return (
    <section
      aria-label={LL.editor.frame.preview.label()}
      className="min-h-64 w-full shrink-0 overflow-auto border-l border-slate-200 bg-slate-50 p-3 lg:w-96"
    >
      <h2 className="mb-2 text-sm font-semibold text-slate-800">{LL.editor.frame.preview.label()}</h2>
      <PreviewLanguage value={language} onChange={setLanguage} />
      <Suspense fallback={null}>
        <SurveyPreview
          content={content}
          startQuestionId={selection?.kind === 'question' ? selection.id : null}
          language={language}
        />
      </Suspense>
    </section>
  );
}

/** A failed save or sending opens the problem list and says how many there are. */
function useRefusalNotice() {
  const { LL } = useI18nContext();
  const ui = useEditorView();
  const state = useSaveState();
  const error = EditorActor.useSelector((s) => s.context.error);
  const count = EditorActor.useSelector((s) => s.context.problems.length);
  useEffect(() => {
    if (state !== 'failed' || count === 0) return;
    ui.setTab('problems');
    if (!error) notify.error(LL.editor.frame.saveRefused({ count }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per refusal
  }, [state, count, error]);
}

/** The page-wide keyboard shortcuts (their own component: the tools' facts change on every click). */
function Shortcuts() {
  useShortcuts(useToolEnv());
  return null;
}

function ReadOnlyBanner() {
  const { LL } = useI18nContext();
  const state = useSaveState();
  const project = EditorActor.useSelector((s) => s.context.project);
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  if (state !== 'readOnly') return null;
  // editReason reads the state and the project only: the rest of the facts do not matter here.
  const facts = {
    state,
    project,
    content,
    canUndo: false,
    canRedo: false,
    dirty: false,
    selection: null,
    roleId: undefined,
  };
  return (
    <p
      role="note"
      id="editor-readonly-note"
      data-readonly-banner
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950"
    >
      {LL.editor.frame.readOnlyBanner({ reason: editReason(LL, facts) ?? '' })}
    </p>
  );
}

/** The command menu reads the tools' facts only while it is open. */
function OpenCommandMenu() {
  return <CommandMenu env={useToolEnv()} />;
}

/**
 * The frame. It reads the page's toggles and a few facts of the machine, not the selection or the
 * content: a click or an edit renders the parts that show them (toolbar, outline, canvas, side
 * panel), not the whole page.
 */
function Editor() {
  const { LL, locale } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const ui = useEditorView();
  const state = useSaveState();
  const name = EditorActor.useSelector((s) => s.context.project?.name ?? '');
  const version = EditorActor.useSelector((s) => s.context.baseVersion);
  const emptyQuestionnaire = EditorActor.useSelector((s) =>
    s.context.doc.content.questionnaires.some((qn) => qn.blocks.length === 0),
  );
  useRefusalNotice();

  // The opening picture (openingPicture.tsx), kept as the draft is written: when the tab is hidden or left.
  const keep = useCallback(() => {
    const { pid, userId, doc } = actor.getSnapshot().context;
    keepPicture(pid, userId, locale, doc.content, LL);
  }, [actor, locale, LL]);
  useEffect(() => {
    // A closing or hidden tab writes its draft now rather than after the autosave delay.
    const flush = () => {
      actor.send({ type: 'draft.flush' });
      keep();
    };
    const onVisibility = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [actor, keep]);

  const loaded = state !== 'loading' && state !== 'loadFailed';
  // The head start's picture of this opening goes in the commit that draws the outline (or says the
  // load failed); while the editor still loads it stays, in place of the loading frame.
  useLayoutEffect(() => {
    if (state !== 'loading') removePicture();
  }, [state]);
  const Canvas = useCanvasModule(loaded);
  // The positions are read (or laid out) once the outline is painted, while the canvas's chunk
  // arrives: the structure's key over every question is not worth a moment of the outline's frame.
  useEffect(() => {
    if (!loaded) return;
    return afterPaint(() => {
      const { db, pid, userId, doc } = actor.getSnapshot().context;
      // The frame as it opened, before the canvas is drawn in it (the picture itself, 20–60 ms at
      // 1 000 questions, is made when the page is hidden or left, not while it is being looked at).
      takeOpeningFrame(pid, userId, locale);
      void layoutOf(db, pid, doc.content).catch(() => {});
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening: a later change of language must not take a frame that is no longer the opening's
  }, [actor, loaded]);
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:overflow-hidden">
      <header
        data-picture="header"
        className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2"
      >
        <div className="min-w-0">
          <h1 className="truncate text-lg font-semibold text-slate-800">{name || LL.editor.page.title()}</h1>
          {loaded && <p className="text-xs text-slate-600">{LL.editor.page.version({ version })}</p>}
        </div>
        <SaveStatus />
      </header>
      <SourceNotice />
      <Shortcuts />
      <ReadOnlyBanner />
      <Toolbar />
      <ConflictPanel />
      {ui.importing && <ImportPanel onDone={() => ui.setImporting(false)} />}
      {loaded && emptyQuestionnaire && state !== 'readOnly' && (
        <p
          role="note"
          data-hint="empty"
          className="border-b border-indigo-100 bg-indigo-50 px-4 py-1 text-sm text-indigo-950"
        >
          {LL.editor.frame.hints.emptyQuestionnaire()}
        </p>
      )}
      {loaded && ui.translating && <TranslationView />}
      {loaded && (
        // Below lg the frame stacks and the page scrolls: outline, canvas (60vh), side panel, each
        // its own height. Shrinking them to the viewport left the canvas 0 px high on a phone.
        // The translation view takes the frame's place; the frame stays mounted (the canvas keeps
        // its graph) but hidden, so closing the view is instant.
        <div
          hidden={ui.translating}
          className="flex shrink-0 flex-col lg:min-h-0 lg:flex-1 lg:shrink lg:flex-row"
        >
          <nav
            aria-label={LL.editor.frame.outline.label()}
            className="flex h-72 min-h-0 w-full shrink-0 flex-col border-b border-slate-200 lg:h-auto lg:w-72 lg:border-b-0 lg:border-r"
          >
            <Outline />
          </nav>
          <main className="flex h-[60vh] min-h-0 min-w-0 flex-none flex-col lg:h-auto lg:flex-1">
            {Canvas ? (
              <Canvas />
            ) : (
              <p className="min-h-0 flex-1 p-4 text-sm text-slate-600">{LL.editor.frame.canvas.loading()}</p>
            )}
            <PriceFooter />
          </main>
          {ui.preview && <Preview />}
          <SidePanel />
        </div>
      )}
      {ui.commandMenu && <OpenCommandMenu />}
    </div>
  );
}

/**
 * How long the editor waits, at most, for the local copy's read started at load before it renders
 * its loading frame: with the copy read, its first render is the outline (one render, one style and
 * layout pass), not the loading frame and then the outline. The read takes a few milliseconds on a
 * quiet machine, up to 100–200 ms on a loaded one; a slower read shows the loading frame as before.
 */
const HOLD_MS = 120;

/** True while the editor waits for the local copy's read (HOLD_MS at most). */
function useHeldForLocalCopy(pid: number, userId: number | undefined): boolean {
  const [held, setHeld] = useState(() => userId !== undefined && localReadUnderWay(pid, userId) !== null);
  useEffect(() => {
    if (!held) return;
    const reading = userId === undefined ? null : localReadUnderWay(pid, userId);
    let live = true;
    const go = () => live && setHeld(false);
    if (!reading) {
      go();
      return;
    }
    const timer = window.setTimeout(go, HOLD_MS);
    reading.then(go, go);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [held, pid, userId]);
  return held;
}

export default function EditorPage() {
  const { LL } = useI18nContext();
  const user = useCurrentUser();
  const pid = Number(new URLSearchParams(useSearch()).get('pid'));
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const held = useHeldForLocalCopy(pid, user?.id);
  if (held) return null;
  if (!Number.isInteger(pid) || pid < 1 || !user) {
    removePicture();
    return (
      <p role="alert" className="p-8 text-slate-700">
        {LL.editor.page.noPid()}
      </p>
    );
  }
  return <EditorMachine key={`${user.id}:${pid}:${generation}`} pid={pid} userId={user.id} reload={reload} />;
}

/** One editor machine (the page's key makes a new one for another project, user or reload). */
function EditorMachine({ pid, userId, reload }: { pid: number; userId: number; reload: () => void }) {
  // The local copy, when the read started at load has found it already: the machine starts opened
  // and its first render is the outline (prefetch.ts). Taken once, when this machine is made.
  const [opened] = useState(() => takeOpenedLocally(pid, userId, appDB()) ?? undefined);
  return (
    <EditorActor.Provider
      logic={prefetchingEditorMachine}
      options={{ input: { pid, userId, localFirst: true, opened } }}
    >
      <EditorUiProvider reload={reload}>
        <Editor />
      </EditorUiProvider>
    </EditorActor.Provider>
  );
}
