import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useI18nContext } from '../../../i18n/i18n-react';
import { fetchVersion, fetchVersions } from '../../../api/versions';
import { ApiError } from '../../../api/client';
import { compareContent } from '../../../domain/content/compare';
import type { ProjectContent } from '../../../domain/content/model';
import type { VersionEntry, VersionList } from '../../../domain/content/versions';
import { Button } from '../../ui/Button';
import { notify } from '../../ui/toast';
import { EditorActor, useSaveState } from '../editorActor';
import { CompareList } from './CompareList';

// The project's saved versions (issue #16): who saved each, when, and what it changed in the
// change-log's words; a comparison of one version with the content on screen; and "restore", which
// puts an old version on screen as one undoable edit, saved like any other. The list is fetched
// when the panel opens and again after each save (the version changes).

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string; offline: boolean }
  | ({ status: 'ready' } & VersionList);

export function HistoryPanel() {
  const { LL, locale } = useI18nContext();
  const pid = EditorActor.useSelector((s) => s.context.pid);
  const baseVersion = EditorActor.useSelector((s) => s.context.baseVersion);
  const [list, setList] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const contents = useRef(new Map<number, ProjectContent>());
  const [open, setOpen] = useState<number | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    fetchVersions(pid, ctrl.signal).then(
      (l) => setList({ status: 'ready', ...l }),
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        const offline = err instanceof ApiError && err.isNetwork;
        setList({ status: 'failed', message: err instanceof Error ? err.message : String(err), offline });
      },
    );
    return () => ctrl.abort();
  }, [pid, baseVersion, attempt]);

  /** A version's content, fetched once (versions never change). */
  const contentOf = useCallback(
    async (version: number) => {
      const known = contents.current.get(version);
      if (known) return known;
      const doc = await fetchVersion(pid, version);
      contents.current.set(version, doc.content);
      return doc.content;
    },
    [pid],
  );

  const dateFormat = useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    [locale],
  );

  return (
    <section aria-labelledby="history-title" className="text-sm">
      <h2 id="history-title" className="font-semibold">
        {LL.versions.history.title()}
      </h2>
      {list.status === 'loading' && <p className="text-slate-600">{LL.versions.history.loading()}</p>}
      {list.status === 'failed' && (
        <div role="alert" className="mt-1 text-red-800">
          <p>
            {list.offline
              ? LL.versions.history.offline()
              : LL.versions.history.failed({ message: list.message })}
          </p>
          <Button variant="secondary" className="mt-1" onClick={() => setAttempt((n) => n + 1)}>
            {LL.versions.history.retry()}
          </Button>
        </div>
      )}
      {list.status === 'ready' && (
        <>
          <p className="text-xs text-slate-600">{LL.versions.history.kept({ count: list.kept })}</p>
          {list.versions.length === 0 ? (
            <p className="mt-1 text-slate-600">{LL.versions.history.empty()}</p>
          ) : (
            <ol aria-label={LL.versions.history.list()} className="mt-2 space-y-2">
              {list.versions.map((v) => (
                <VersionItem
                  key={v.version}
                  entry={v}
                  current={v.version === baseVersion}
                  when={dateFormat.format(new Date(v.savedAt))}
                  open={open === v.version}
                  onToggle={() => setOpen(open === v.version ? null : v.version)}
                  contentOf={contentOf}
                />
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

function VersionItem({
  entry,
  current,
  when,
  open,
  onToggle,
  contentOf,
}: {
  entry: VersionEntry;
  current: boolean;
  when: string;
  open: boolean;
  onToggle: () => void;
  contentOf: (version: number) => Promise<ProjectContent>;
}) {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const state = useSaveState();
  const editable = EditorActor.useSelector((s) => s.context.project?.editable ?? false);
  const [busy, setBusy] = useState(false);
  const who = entry.savedBy
    ? entry.savedBy.fullname || entry.savedBy.email
    : LL.versions.history.unknownAuthor();
  const changes = entry.summary?.changes ?? [];
  const more = (entry.summary?.total ?? 0) - Math.min(changes.length, 5);
  const canRestore = editable && state !== 'readOnly' && state !== 'conflict' && state !== 'merging';

  const restore = async () => {
    setBusy(true);
    try {
      const content = await contentOf(entry.version);
      actor.send({
        type: 'content.edit',
        command: {
          type: 'content.replace',
          content,
          label: LL.versions.history.version({ version: entry.version }),
        },
      });
      notify.success(LL.versions.history.restored({ version: entry.version }));
    } catch (err) {
      notify.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li data-version={entry.version} className="rounded border border-slate-200 p-2">
      <p className="font-medium text-slate-800">
        {LL.versions.history.version({ version: entry.version })}
        {current && (
          <span className="ml-1 text-xs font-normal text-emerald-800">({LL.versions.history.current()})</span>
        )}
      </p>
      <p className="text-xs text-slate-600">
        {who} · <time dateTime={new Date(entry.savedAt).toISOString()}>{when}</time>
      </p>
      {entry.summary === null ? (
        <p className="text-xs text-slate-600">{LL.versions.history.noSummary()}</p>
      ) : changes.length === 0 ? (
        <p className="text-xs text-slate-600">{LL.versions.history.noChanges()}</p>
      ) : (
        <ul className="mt-1 list-disc pl-4 text-slate-700">
          {changes.slice(0, 5).map((c, i) => (
            <li key={i} data-code={c.code} className="break-words">
              {c.label ? `${LL.editor.changeLog[c.code]()}: ${c.label}` : LL.editor.changeLog[c.code]()}
            </li>
          ))}
          {more > 0 && (
            <li className="list-none text-slate-600">{LL.versions.history.more({ count: more })}</li>
          )}
        </ul>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="secondary" aria-expanded={open} onClick={onToggle}>
          {open ? LL.versions.history.hideCompare() : LL.versions.history.compare({ version: entry.version })}
        </Button>
        {canRestore && !current && (
          <Button variant="secondary" disabled={busy} onClick={() => void restore()}>
            {LL.versions.history.restore({ version: entry.version })}
          </Button>
        )}
      </div>
      {open && <VersionDiff version={entry.version} contentOf={contentOf} />}
    </li>
  );
}

/** What differs between one version and the content on screen, item by item. */
function VersionDiff({
  version,
  contentOf,
}: {
  version: number;
  contentOf: (version: number) => Promise<ProjectContent>;
}) {
  const { LL } = useI18nContext();
  const now = EditorActor.useSelector((s) => s.context.doc.content);
  const [then, setThen] = useState<ProjectContent | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    contentOf(version).then(
      (c) => live && setThen(c),
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [version, contentOf]);
  const diff = useMemo(() => (then ? compareContent(then, now) : null), [then, now]);
  if (error)
    return (
      <p role="alert" className="mt-2 text-red-800">
        {LL.versions.history.failed({ message: error })}
      </p>
    );
  if (!diff) return <p className="mt-2 text-slate-600">{LL.versions.history.loading()}</p>;
  return (
    <div className="mt-2 border-t border-slate-200 pt-2">
      <h3 className="text-xs font-semibold text-slate-600">{LL.versions.history.diffTitle({ version })}</h3>
      {diff.length === 0 ? (
        <p className="text-slate-600">{LL.versions.history.same()}</p>
      ) : (
        <CompareList LL={LL} entries={diff} />
      )}
    </div>
  );
}
