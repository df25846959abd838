import { useEffect, useState } from 'react';
import { getReport } from '../../api/reports';
import type { ProjectStatusId } from '../../domain/projects';
import type { FilterChoices } from './filters';
import { languageName } from '../../domain/content/languages';

// What the list page shows about its project beyond the rows: the name for the title, and the
// choices of the portrait, city and language filters (the project's portraits, the cities its
// respondents gave, the questionnaire's languages). They come from the report's JSON without
// filters (the server keeps a final report once made), asked for only once the list's first page
// is on screen, so the rows never wait for it.

export interface ProjectFacts extends FilterChoices {
  name: string;
  status: ProjectStatusId;
}

export function useProjectFacts(pid: number, start: boolean, locale: string): ProjectFacts | null {
  const [facts, setFacts] = useState<ProjectFacts | null>(null);
  useEffect(() => {
    if (!start) return;
    const ac = new AbortController();
    getReport(pid, {}, { signal: ac.signal })
      .then((r) => {
        if (ac.signal.aborted) return;
        setFacts({
          name: r.project.name,
          status: r.project.status,
          portraits: r.portraits.map((p) => ({ id: p.id, name: p.name || p.id })),
          languages: r.languages.map((code) => ({ id: code, name: languageName(code, locale) })),
          cities: [...r.cities]
            .map((c) => ({ id: c.id, name: c.name }))
            .sort((a, b) => a.name.localeCompare(b.name, locale)),
        });
      })
      // The list works without them: the filters then offer what the address holds.
      .catch(() => {});
    return () => ac.abort();
  }, [pid, start, locale]);
  return facts;
}
