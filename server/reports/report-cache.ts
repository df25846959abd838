import type { ProjectRow } from '../repos/projects';
import { FINAL_REPORT_STATUSES } from '../../src/domain/reports';
import type { ProjectStatusId } from '../../src/domain/projects';

// Final reports kept as JSON text (docs/decisions/reports.md, docs/decisions/reads.md). Answers are
// written only while a project is On rotation (the write itself checks it), and its content only in
// Created or Rejected; once a project is in a final status its report changes only when the
// project moves, which moves its updated_at, or when its content version does. So a final report is
// named by the project's id, status and updated_at, its content version, the caller's language and
// the query, all read afresh on every call; a live report is always built.

const MAX_CHARS = 32 * 1024 * 1024;

export class ReportTexts {
  private texts = new Map<string, Promise<string>>();
  private sizes = new Map<string, number>();
  private chars = 0;

  /** The key naming a final report, or null when the report is live (never kept). */
  static keyOf(
    p: NonNullable<ProjectRow>,
    contentVersion: number,
    locale: string,
    query: unknown,
  ): string | null {
    if (!FINAL_REPORT_STATUSES.includes(p.status as ProjectStatusId)) return null;
    return JSON.stringify([p.id, p.status, Number(p.updated_at), contentVersion, locale, query]);
  }

  /** The kept text, or the one `build` makes (calls asking while it is made share it). */
  get(key: string, build: () => Promise<string>): Promise<string> {
    let text = this.texts.get(key);
    if (text) {
      this.texts.delete(key);
      this.texts.set(key, text);
      return text;
    }
    text = build();
    this.texts.set(key, text);
    text.then(
      (t) => {
        if (this.texts.get(key) !== text) return;
        this.sizes.set(key, t.length);
        this.chars += t.length;
        for (const k of this.texts.keys()) {
          if (this.chars <= MAX_CHARS) break;
          if (k === key || !this.sizes.has(k)) continue;
          this.texts.delete(k);
          this.chars -= this.sizes.get(k)!;
          this.sizes.delete(k);
        }
      },
      () => this.texts.delete(key),
    );
    return text;
  }
}
