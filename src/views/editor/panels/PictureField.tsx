import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AppDB } from '../../../db/AppDB';
import { queuePicture } from '../../../db/pendingPictures';
import { LIMITS, pendingPictureId } from '../../../domain/content/limits';
import { EditorActor } from '../editorActor';
import { PictureUploadError, uploadWithProgress } from './pictureUpload';
import { useI18nContext } from '../../../i18n/i18n-react';
import { IconButton } from '../../ui/Button';
import { TrashIcon } from '../../ui/icons';

// A picture on a question or an answer: picked or dropped, checked here for type (by the file's
// first bytes, as the server judges it) and size before anything is sent, uploaded through
// POST /picture with progress, shown as a thumbnail, removable. Offline (or when the network drops
// during the upload) the file waits in the browser's queue (src/db/pendingPictures.ts) and the
// content holds a `local-picture:` reference, shown from the file itself with a "waits" mark; the
// save uploads it (pictureQueue.ts). Removing or replacing it leaves its file in the queue, so an
// undo brings the picture back whole; the save drops the files nothing can bring back any more.

const MB = LIMITS.imageBytes / 1024 / 1024;

/** The picture type a file's first bytes say, or null (the signatures the server accepts). */
export async function sniff(file: Blob): Promise<'jpg' | 'png' | 'gif' | 'webp' | null> {
  const b = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const ascii = (from: number, to: number) => String.fromCharCode(...b.slice(from, to));
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (b[0] === 0x89 && ascii(1, 4) === 'PNG') return 'png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

/** The thumbnail of a queued picture: its own Blob as an object URL; null when its row is gone. */
function useQueuedThumbnail(db: AppDB, ref: string | null): string | null | 'loading' {
  const id = pendingPictureId(ref);
  const row = useLiveQuery(
    async () => (id ? ((await db.pendingPictures.get(id)) ?? null) : null),
    [db, id],
    'loading' as const,
  );
  const blob = row && row !== 'loading' ? row.blob : null;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  if (!id) return null;
  return row === 'loading' || (row && !url) ? 'loading' : url;
}

export function PictureField({
  value,
  what,
  disabled,
  onChange,
  compact,
}: {
  value: string | null;
  /** Names the item ("Question 4", "Answer 2") in the labels and messages. */
  what: string;
  disabled: boolean;
  onChange: (url: string | null) => void;
  compact?: boolean;
}) {
  const { LL } = useI18nContext();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [queued, setQueued] = useState(false);
  const T = LL.panels.picture;
  const pid = EditorActor.useSelector((st) => st.context.pid);
  const db = EditorActor.useSelector((st) => st.context.db);
  const pending = pendingPictureId(value) !== null;
  const local = useQueuedThumbnail(db, value);
  const src = pending ? (local === 'loading' ? null : local) : value;

  /** Keeps the file for the next save (a queued picture it replaces stays queued for an undo). */
  const enqueue = async (file: File) => {
    const ref = await queuePicture(db, pid, file, file.name);
    onChange(ref);
    setQueued(true);
  };
  const remove = () => {
    setQueued(false);
    onChange(null);
  };

  const take = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setQueued(false);
    if (file.size > LIMITS.imageBytes)
      return setError(`${what}: ${T.tooLarge({ name: file.name, max: MB })}`);
    if (!(await sniff(file))) return setError(`${what}: ${T.badType({ name: file.name })}`);
    try {
      if (navigator.onLine === false) return await enqueue(file);
      setProgress(0);
      try {
        const [picture] = await uploadWithProgress([{ blob: file, name: file.name }], setProgress);
        onChange(picture.url);
      } catch (err) {
        // The network, not the file: keep it for the save instead of losing what the user picked.
        if (err instanceof PictureUploadError && err.code === 'network') await enqueue(file);
        else throw err;
      }
    } catch (err) {
      setError(`${what}: ${T.failed({ message: (err as Error).message })}`);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) void take(e.dataTransfer.files[0]);
  };

  // Read only with nothing to show: say so, not an empty drop zone.
  if (disabled && !src && !pending && !error)
    return compact ? null : <p className="text-xs text-slate-600">{T.empty()}</p>;

  return (
    <div
      className={`flex flex-col gap-1 ${compact ? '' : 'rounded border border-dashed p-2'} ${over ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300'}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-picture-field={what}
    >
      <div className="flex flex-wrap items-center gap-2">
        {src && (
          <img
            src={src}
            alt={T.alt({ what })}
            className="h-12 w-12 rounded border border-slate-200 object-cover"
            data-pending={pending || undefined}
          />
        )}
        {pending && local !== null && (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">
            {T.pending()}
          </span>
        )}
        {!disabled && (
          <>
            <input
              ref={input}
              id={id}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif"
              aria-label={`${T.pick()}: ${what}`}
              className="sr-only"
              onChange={(e) => void take(e.target.files?.[0])}
            />
            <label
              htmlFor={id}
              className="cursor-pointer rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-700 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-indigo-500"
            >
              {T.pick()}
            </label>
            {!compact && <span className="text-xs text-slate-600">{T.drop()}</span>}
            {value && (
              <IconButton label={`${T.remove()}: ${what}`} className="h-7 w-7" onClick={remove}>
                <TrashIcon />
              </IconButton>
            )}
          </>
        )}
      </div>
      {progress !== null && (
        <div className="flex items-center gap-2">
          <progress
            max={100}
            value={progress}
            aria-label={T.uploading({ percent: progress })}
            className="h-2 flex-1"
          />
          <span className="text-xs text-slate-600">{T.uploading({ percent: progress })}</span>
        </div>
      )}
      {queued && pending && <p className="text-xs text-amber-900">{T.waiting()}</p>}
      {pending && local === null && (
        <p role="alert" className="text-xs text-red-800">
          {`${what}: ${T.lost()}`}
        </p>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
