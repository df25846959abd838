import { api, ApiError } from './client';
import type { EditorProject, ProjectContent } from '../domain/content/model';
import type { Problem } from '../domain/content/problems';

// The questionnaire content calls (spec section 7): GET /project (the content with its version, sent
// back as the ETag), POST /project (If-Match: the version the content is based on) and POST /picture.

export interface ProjectDocument extends EditorProject {
  version: number;
  /** Unix milliseconds of the last save, null when never saved. */
  updatedAt: number | null;
  content: ProjectContent;
}

export interface SaveResult {
  version: number;
  updatedAt: number;
  questions: number;
  /** What the rules still find (incomplete items that stop only the sending to moderation). */
  problems: Problem[];
}

/** The server's side of a 412: what is saved there now. */
export interface ServerCopy {
  version: number;
  updatedAt: number | null;
  content: ProjectContent;
}

export interface UploadedPicture {
  url: string;
  hash: string;
  type: string;
  size: number;
  name: string;
}

export function fetchProject(pid: number, signal?: AbortSignal): Promise<ProjectDocument> {
  return api.get<ProjectDocument>('/project', { query: { pid }, signal });
}

export function saveProject(pid: number, content: ProjectContent, baseVersion: number): Promise<SaveResult> {
  return api.post<SaveResult>('/project', { pid, content }, { headers: { 'if-match': `"${baseVersion}"` } });
}

/** The server copy carried by a 412 answer, or null when the error is something else. */
export function serverCopyOf(err: unknown): ServerCopy | null {
  if (!(err instanceof ApiError) || err.status !== 412) return null;
  const details = (err.body as { details?: Partial<ServerCopy> } | null)?.details;
  if (!details || typeof details.version !== 'number' || !details.content) return null;
  return { version: details.version, updatedAt: details.updatedAt ?? null, content: details.content };
}

/** The problems a refused save (400) listed, or []. */
export function problemsOf(err: unknown): Problem[] {
  if (!(err instanceof ApiError) || err.status !== 400) return [];
  const details = (err.body as { details?: unknown } | null)?.details;
  return Array.isArray(details) && details.every((d) => d && typeof d === 'object' && 'rule' in d)
    ? (details as Problem[])
    : [];
}

export function uploadPictures(files: File[]): Promise<UploadedPicture[]> {
  const form = new FormData();
  for (const f of files) form.append('images', f, f.name);
  return api.post<UploadedPicture[]>('/picture', form);
}
