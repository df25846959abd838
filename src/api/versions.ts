import { api } from './client';
import type { VersionDocument, VersionList } from '../domain/content/versions';

// The version history of a project's content (docs/api.md, "Version history").

export function fetchVersions(pid: number, signal?: AbortSignal): Promise<VersionList> {
  return api.get<VersionList>('/project/versions', { query: { pid }, signal });
}

export function fetchVersion(pid: number, version: number, signal?: AbortSignal): Promise<VersionDocument> {
  return api.get<VersionDocument>('/project/version', { query: { pid, version }, signal });
}
