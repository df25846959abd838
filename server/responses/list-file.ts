import type { ProjectRow } from '../repos/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ProjectStatusId } from '../../src/domain/projects';
import type { RespondentsFilter } from '../../src/domain/responses';
import type { ReportFile } from '../reports/respondent-rows';
import { contentLanguages } from '../../src/domain/content/languages';

// The respondents list as a file (GET /project/respondents/file): the report's raw rows (one row per
// respondent, a column per question) for the list's filter, with the flags, the exclusion and its
// reason, and no summary sheets (those count the report's respondents, not the list's).

export function listFile(
  project: NonNullable<ProjectRow>,
  content: ProjectContent,
  filter: RespondentsFilter,
): ReportFile {
  return {
    project: { id: project.id, name: project.name, status: project.status as ProjectStatusId },
    final: false,
    available: true,
    countersAvailable: true,
    filters: {},
    // Issue 32: the questionnaire's languages; the file's texts in its source language.
    languages: [...contentLanguages(content)],
    textLanguage: contentLanguages(content)[0],
    respondents: { started: 0, completed: 0, screenedOut: 0, inProgress: 0 },
    portraits: [],
    questions: [],
    cities: [],
    regions: [],
    funnel: [],
    timing: { completed: 0, medianSeconds: null, p90Seconds: null },
    timeline: [],
    generatedAt: Date.now(),
    rows: { excluded: filter.excluded, list: { filter, content } },
  };
}
