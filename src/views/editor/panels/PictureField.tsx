import { useId, useRef, useState, type DragEvent } from 'react';
import { readAuth, writeAuth } from '../../../api/storage';
import type { UploadedPicture } from '../../../api/content';
import { LIMITS } from '../../../domain/content/limits';
import { useI18nContext } from '../../../i18n/i18n-react';
import { IconButton } from '../../ui/Button';
import { TrashIcon } from '../../ui/icons';

// A picture on a question or an answer: picked or dropped, checked here for type (by the file's
// first bytes, as the server judges it) and size before anything is sent, uploaded through
// POST /picture with progress, shown as a thumbnail, removable.

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

function upload(file: File, onProgress: (percent: number) => void): Promise<UploadedPicture> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/service/picture');
    const auth = readAuth();
    if (auth) {
      xhr.setRequestHeader('x-auth-token', auth.accessToken);
      xhr.setRequestHeader('x-refresh-token', auth.refreshToken);
    }
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      // The server renews expired tokens in the answer's headers.
      const access = xhr.getResponseHeader('x-auth-token');
      const refresh = xhr.getResponseHeader('x-refresh-token');
      if (auth && access && refresh) writeAuth({ ...auth, accessToken: access, refreshToken: refresh });
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(body) && body[0])
        resolve(body[0] as UploadedPicture);
      else
        reject(
          new Error(
            (body as { message?: string } | null)?.message ?? `Server response status: ${xhr.status}`,
          ),
        );
    };
    xhr.onerror = () => reject(new Error('Network error'));
    const form = new FormData();
    form.append('images', file, file.name);
    xhr.send(form);
  });
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
  const T = LL.panels.picture;

  const take = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > LIMITS.imageBytes)
      return setError(`${what}: ${T.tooLarge({ name: file.name, max: MB })}`);
    if (!(await sniff(file))) return setError(`${what}: ${T.badType({ name: file.name })}`);
    setProgress(0);
    try {
      const picture = await upload(file, setProgress);
      onChange(picture.url);
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
        {value && (
          <img
            src={value}
            alt={T.alt({ what })}
            className="h-12 w-12 rounded border border-slate-200 object-cover"
          />
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
              <IconButton label={`${T.remove()}: ${what}`} className="h-7 w-7" onClick={() => onChange(null)}>
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
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
