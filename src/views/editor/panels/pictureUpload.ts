import { readAuth, writeAuth } from '../../../api/storage';
import type { UploadedPicture } from '../../../api/content';

// POST /picture with upload progress (fetch cannot report it, so XMLHttpRequest), for one picked
// file or a whole queue of pictures waiting since the network went away. The answer lists the
// uploaded pictures in the order of the parts sent.

/** Why an upload failed: the network (the picture can wait and retry) or the server's refusal. */
export class PictureUploadError extends Error {
  override name = 'PictureUploadError';
  constructor(
    readonly code: 'network' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

export function uploadWithProgress(
  files: { blob: Blob; name: string }[],
  onProgress: (percent: number) => void,
): Promise<UploadedPicture[]> {
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
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(body) && body.length === files.length)
        resolve(body as UploadedPicture[]);
      else
        reject(
          new PictureUploadError(
            'refused',
            (body as { message?: string } | null)?.message ?? `Server response status: ${xhr.status}`,
          ),
        );
    };
    xhr.onerror = () => reject(new PictureUploadError('network', 'Network error'));
    xhr.ontimeout = xhr.onerror;
    const form = new FormData();
    for (const f of files) form.append('images', f.blob, f.name);
    xhr.send(form);
  });
}
