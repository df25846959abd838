import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { ProjectContent, Question } from '../../domain/content/model';
import type { SelectionKind } from './selection';
import { blockName, questionnaireName } from './items';
import { sourceLanguage, translation } from '../../domain/content/languages';

// The outline's rows: the content flattened in reading order, skipping the children of collapsed
// items, so that the tree can be virtualised (only the rows on screen are in the DOM).

export interface OutlineRow {
  kind: SelectionKind;
  id: string;
  level: 1 | 2 | 3;
  label: string;
  /** The name or text the rename field edits. */
  name: string;
  parent: string | null;
  hasChildren: boolean;
  posinset: number;
  setsize: number;
  /** The question's category, shown beside its text. */
  category?: string;
  /** Shown in another language than the source and not translated yet: the label is the source's. */
  untranslated?: boolean;
}

/**
 * A question's last row with its number: an unchanged question (the same object, content being
 * immutable) at the same place keeps its row object, so an edit builds one row, not a thousand.
 */
export type OutlineRowCache = WeakMap<Question, { n: number; row: OutlineRow }>;

export function outlineRows(
  LL: TranslationFunctions,
  content: ProjectContent,
  collapsed: ReadonlySet<string>,
  cache?: OutlineRowCache,
  /** The language whose texts the rows show (the toolbar's switch; the source when absent). */
  language?: string,
): OutlineRow[] {
  const rows: OutlineRow[] = [];
  const translated = language !== undefined && language !== sourceLanguage(content);
  // Each step into LL builds proxies: the functions are looked up once, not once per question (that
  // was a third of a committed edit at 1 000 questions).
  const questionText = LL.editor.frame.outline.questionText;
  const questionPlain = LL.editor.frame.outline.question;
  const categories = LL.common.categories;
  const categoryNames = new Map<string, string>();
  const categoryName = (c: keyof typeof categories) => {
    let name = categoryNames.get(c);
    if (name === undefined) categoryNames.set(c, (name = categories[c]()));
    return name;
  };
  content.questionnaires.forEach((qn, i) => {
    rows.push({
      kind: 'questionnaire',
      id: qn.id,
      level: 1,
      label: questionnaireName(LL, qn.name, i + 1),
      name: qn.name ?? '',
      parent: null,
      hasChildren: qn.blocks.length > 0,
      posinset: i + 1,
      setsize: content.questionnaires.length,
    });
    if (collapsed.has(qn.id)) return;
    let n = 0;
    qn.blocks.forEach((b, j) => {
      rows.push({
        kind: 'block',
        id: b.id,
        level: 2,
        label: blockName(LL, b.name, j + 1),
        name: b.name,
        parent: qn.id,
        hasChildren: b.questions.length > 0,
        posinset: j + 1,
        setsize: qn.blocks.length,
      });
      if (collapsed.has(b.id)) {
        n += b.questions.length;
        return;
      }
      b.questions.forEach((q, k) => {
        n++;
        const hit = cache?.get(q);
        if (
          hit &&
          hit.n === n &&
          hit.row.posinset === k + 1 &&
          hit.row.setsize === b.questions.length &&
          hit.row.parent === b.id
        ) {
          rows.push(hit.row);
          return;
        }
        // In another language: its translation, or the source's text marked as not translated.
        const own = translated ? translation(q, 'text', language, content) : q.text;
        const text = own ?? q.text;
        const row: OutlineRow = {
          kind: 'question',
          id: q.id,
          level: 3,
          label: text ? questionText({ n, text }) : questionPlain({ n }),
          name: own ?? '',
          parent: b.id,
          hasChildren: false,
          posinset: k + 1,
          setsize: b.questions.length,
          category: categoryName(q.category),
          ...(translated && own === undefined && q.text.trim() !== '' ? { untranslated: true } : {}),
        };
        cache?.set(q, { n, row });
        rows.push(row);
      });
    });
  });
  return rows;
}
