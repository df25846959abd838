import type { Db } from '../db';
import { loadContent } from '../repos/content';
import type { ProjectContent } from '../../src/domain/content/model';

// Parsed content by project and version: a submission must not parse a large questionnaire each time.
// Content cannot change while respondents answer (it is editable only in Created and Rejected, which
// On rotation never returns to), so a cached copy is trusted for a few seconds without asking.
// Kept per database: one process may open several (the upgrade test starts a server per database, where
// the same project id holds other content).
const contentCaches = new WeakMap<
  Db,
  Map<number, { version: number; content: ProjectContent; at: number }>
>();
const TRUST_MS = 5000;
export async function surveyContent(db: Db, projectId: number): Promise<ProjectContent> {
  let contentCache = contentCaches.get(db);
  if (!contentCache) contentCaches.set(db, (contentCache = new Map()));
  const hit = contentCache.get(projectId);
  if (hit && Date.now() - hit.at < TRUST_MS) return hit.content;
  const row = await db
    .selectFrom('project_contents')
    .select('version')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  const cached = contentCache.get(projectId);
  if (cached && row && cached.version === row.version) {
    cached.at = Date.now();
    return cached.content;
  }
  const stored = await loadContent(db, projectId);
  // Shared by every answer: frozen, so nothing changes it by mistake (and the flow keeps its index).
  deepFreeze(stored.content);
  if (contentCache.size > 200) contentCache.clear();
  contentCache.set(projectId, { version: stored.version, content: stored.content, at: Date.now() });
  return stored.content;
}

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return;
  for (const v of Object.values(value)) deepFreeze(v);
  Object.freeze(value);
}

/** Only what the runner shows: questionnaires without the platform's technical settings. */
export function publicContent(content: ProjectContent): ProjectContent {
  return {
    ...(content.languages && { languages: content.languages }),
    portraits: [],
    questionnaires: content.questionnaires.map((qn) => ({
      ...qn,
      blocks: qn.blocks.map((b) => ({
        ...b,
        customParams: '',
        callbackUrl: '',
        questions: b.questions.map((q) => ({ ...q, customParams: '', dbFields: [], writeToDb: false })),
      })),
    })),
  };
}
