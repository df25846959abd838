import { can } from '../../../domain/permissions';
import { isEditableStatus, ProjectType } from '../../../domain/projects';
import type { EditorProject, ProjectContent } from '../../../domain/content/model';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { SaveState } from '../../../machines/editor/context';
import type { EditorSelection } from '../selection';
import { locate } from '../items';
import { demoRefuses } from '../../../domain/demoRules';

// When each editor command may run, and why not, as a pure function of what the page knows (the
// machine's state, the project, the selection). The toolbar's tooltips, the command menu, the
// keyboard and the model-based test (tests/machines/editor-tools.test.ts) all ask this one table.

export interface ToolFacts {
  state: SaveState;
  project: EditorProject | null;
  content: ProjectContent;
  canUndo: boolean;
  canRedo: boolean;
  /** The content differs from the server's copy. */
  dirty: boolean;
  selection: EditorSelection;
  roleId: number | undefined;
}

export type ToolId =
  | 'undo'
  | 'redo'
  | 'openReport'
  | 'refresh'
  | 'connections'
  | 'preview'
  | 'import'
  | 'save'
  | 'portraits'
  | 'projectSettings'
  | 'sendModeration'
  | 'surveyLink'
  | 'backToProjects'
  | 'help'
  | 'addQuestionnaire'
  | 'addBlock'
  | 'addQuestion'
  | 'rename'
  | 'duplicate'
  | 'delete'
  | 'moveUp'
  | 'moveDown'
  | 'commandMenu';

/** The spec's 14 toolbar tools, in its order (section 2). */
export const TOOLBAR: readonly ToolId[] = [
  'undo',
  'redo',
  'openReport',
  'refresh',
  'connections',
  'preview',
  'import',
  'save',
  'portraits',
  'projectSettings',
  'sendModeration',
  'surveyLink',
  'backToProjects',
  'help',
];

/** Structure commands: the outline, the canvas's context menu and the command menu. */
export const STRUCTURE: readonly ToolId[] = [
  'addQuestionnaire',
  'addBlock',
  'addQuestion',
  'rename',
  'duplicate',
  'delete',
  'moveUp',
  'moveDown',
];

const LOADED: ReadonlySet<SaveState> = new Set([
  'saved',
  'editing',
  'saving',
  'offline',
  'failed',
  'readOnly',
  'conflict',
]);
const EDITING: ReadonlySet<SaveState> = new Set(['saved', 'editing', 'saving', 'offline', 'failed']);

/** Why the content cannot be edited now; null when it can. */
export function editReason(LL: TranslationFunctions, f: ToolFacts): string | null {
  if (!LOADED.has(f.state) || !f.project) return LL.editor.frame.why.loading();
  if (f.state === 'conflict') return LL.editor.frame.why.conflict();
  if (f.state === 'readOnly' || !f.project.editable) {
    const status = f.project.status;
    return !isEditableStatus(status)
      ? LL.editor.frame.why.readOnlyStatus({
          status: LL.projects.status[String(status) as keyof TranslationFunctions['projects']['status']](),
        })
      : LL.editor.frame.why.readOnlyRole();
  }
  return EDITING.has(f.state) ? null : LL.editor.frame.why.loading();
}

/** The list the selected item belongs to and its place in it (for move up/down). */
function siblings(f: ToolFacts): { index: number; length: number } | null {
  const at = locate(f.content, f.selection);
  if (!at) return null;
  const qn = f.content.questionnaires[at.qn];
  if (at.block === null) return { index: at.qn, length: f.content.questionnaires.length };
  if (at.question === null) return { index: at.block, length: qn.blocks.length };
  return { index: at.question, length: qn.blocks[at.block].questions.length };
}

/** The questionnaire new blocks go into: the selection's, else the last one. */
export function targetQuestionnaire(f: ToolFacts): number | null {
  const at = locate(f.content, f.selection);
  if (at) return at.qn;
  return f.content.questionnaires.length ? f.content.questionnaires.length - 1 : null;
}

/** The block new questions go into: the selection's, else the last block of the target questionnaire. */
export function targetBlock(f: ToolFacts): { qn: number; block: number } | null {
  const at = locate(f.content, f.selection);
  if (at && at.block !== null) return { qn: at.qn, block: at.block };
  const qn = at ? at.qn : f.content.questionnaires.length - 1;
  const blocks = f.content.questionnaires[qn]?.blocks;
  return blocks?.length ? { qn, block: blocks.length - 1 } : null;
}

/** Why a command cannot run now; null when it can. */
export function disabledReason(LL: TranslationFunctions, id: ToolId, f: ToolFacts): string | null {
  const loaded = LOADED.has(f.state) && f.project ? null : LL.editor.frame.why.loading();
  const edit = editReason(LL, f);
  // Only the item commands ask where the selection is (a walk of the content).
  const selected = () =>
    f.selection && locate(f.content, f.selection) ? null : LL.editor.frame.why.noSelection();
  switch (id) {
    case 'undo':
      return edit ?? (f.canUndo ? null : LL.editor.frame.why.nothingToUndo());
    case 'redo':
      return edit ?? (f.canRedo ? null : LL.editor.frame.why.nothingToRedo());
    case 'openReport':
    case 'connections':
    case 'preview':
    case 'backToProjects':
    case 'help':
    case 'commandMenu':
      return id === 'backToProjects' || id === 'commandMenu' ? null : loaded;
    case 'refresh':
      return f.state === 'saving' ? LL.editor.frame.why.saving() : f.state === 'loading' ? loaded : null;
    case 'import':
    case 'addQuestionnaire':
      return edit;
    case 'save':
      return (
        edit ??
        (f.state === 'saving'
          ? LL.editor.frame.why.saving()
          : f.state === 'saved'
            ? LL.editor.frame.why.nothingToSave()
            : null)
      );
    case 'portraits':
      return edit ?? (f.project!.type === ProjectType.Target ? null : LL.editor.frame.why.portraitsType());
    case 'projectSettings':
      return (
        loaded ??
        (can(f.roleId, 'project-editor.change-project-settings') ? null : LL.editor.frame.why.settingsRole())
      );
    case 'sendModeration':
      if (demoRefuses(f.roleId, 'submit')) return LL.projects.demoRefused.submit(); // the server's 403 would sign out
      return edit ?? (f.dirty || f.state !== 'saved' ? LL.editor.frame.why.saveFirst() : null);
    case 'surveyLink':
      if (demoRefuses(f.roleId, 'link')) return LL.projects.demoRefused.link();
      // A project already past editing has its link at once; one being written is sent first.
      if (loaded) return loaded;
      if (f.state === 'conflict') return LL.editor.frame.why.conflict();
      if (f.state === 'readOnly' || !f.project!.editable) return null;
      return f.dirty || f.state !== 'saved' ? LL.editor.frame.why.saveFirst() : null;
    case 'addBlock':
      return edit ?? (targetQuestionnaire(f) === null ? LL.editor.frame.why.noQuestionnaire() : null);
    case 'addQuestion':
      return edit ?? (targetBlock(f) === null ? LL.editor.frame.why.noBlock() : null);
    case 'rename':
    case 'duplicate':
    case 'delete':
      return edit ?? selected();
    case 'moveUp':
    case 'moveDown': {
      if (edit) return edit;
      const notSelected = selected();
      if (notSelected) return notSelected;
      const s = siblings(f);
      if (id === 'moveUp' && s!.index === 0) return LL.editor.frame.why.first();
      if (id === 'moveDown' && s!.index === s!.length - 1) return LL.editor.frame.why.last();
      return null;
    }
  }
}
