import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { EditorActorRef } from '../dialogs';
import type { EditorUiState } from '../EditorUi';
import { disabledReason, type ToolFacts, type ToolId } from './availability';
import * as run from './run';
import { saveWithPictures } from '../panels/pictureQueue';

// The editor's commands as data (STYLE.md, "Editor commands are data"): each has its label, icon,
// shortcut, when it is enabled (availability.ts) and what it does (run.ts). The toolbar, the
// keyboard, the command menu, the outline and the canvas's context menu all read these objects.

export interface ToolEnv {
  LL: TranslationFunctions;
  actor: EditorActorRef;
  ui: EditorUiState;
  facts: ToolFacts;
  navigate: (to: string) => void;
}

export interface Shortcut {
  key: string;
  /** Ctrl (Cmd on a Mac). */
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
}

export interface Tool {
  id: ToolId;
  label: (LL: TranslationFunctions) => string;
  icon: string;
  shortcuts: Shortcut[];
  /** A toggle: whether it is on now. */
  pressed?: (env: ToolEnv) => boolean;
  run: (env: ToolEnv) => void | Promise<void>;
}

const t = (id: ToolId, shortcuts: Shortcut[], perform: Tool['run'], pressed?: Tool['pressed']): Tool => ({
  id,
  label: (LL) => LL.editor.frame.tools[id](),
  icon: id.startsWith('add') ? 'add' : id,
  shortcuts,
  run: perform,
  pressed,
});

export const TOOLS: Record<ToolId, Tool> = {
  undo: t('undo', [{ key: 'z', mod: true }], ({ actor }) => actor.send({ type: 'history.undo' })),
  redo: t(
    'redo',
    [
      { key: 'z', mod: true, shift: true },
      { key: 'y', mod: true },
    ],
    ({ actor }) => actor.send({ type: 'history.redo' }),
  ),
  openReport: t('openReport', [], run.openReport),
  refresh: t('refresh', [], run.refresh),
  connections: t(
    'connections',
    [{ key: 'c', alt: true }],
    ({ ui }) => ui.setConnections(!ui.connections),
    ({ ui }) => ui.connections,
  ),
  preview: t(
    'preview',
    [{ key: 'p', alt: true }],
    ({ ui }) => ui.setPreview(!ui.preview),
    ({ ui }) => ui.preview,
  ),
  import: t(
    'import',
    [{ key: 'i', alt: true }],
    ({ ui }) => ui.setImporting(!ui.importing),
    ({ ui }) => ui.importing,
  ),
  // Pictures queued offline are uploaded (and their references swapped) before the save itself.
  save: t('save', [{ key: 's', mod: true }], ({ actor, LL }) => saveWithPictures(actor, LL)),
  portraits: t('portraits', [], run.portraits),
  projectSettings: t('projectSettings', [], run.projectSettings),
  sendModeration: t('sendModeration', [], run.sendModeration),
  surveyLink: t('surveyLink', [], run.surveyLink),
  backToProjects: t('backToProjects', [], ({ navigate }) => navigate('/projects')),
  help: t('help', [{ key: 'F1' }], run.help),
  addQuestionnaire: t('addQuestionnaire', [{ key: 'n', alt: true }], run.addQuestionnaire),
  addBlock: t('addBlock', [{ key: 'b', alt: true }], run.addBlock),
  addQuestion: t('addQuestion', [{ key: 'q', alt: true }], run.addQuestion),
  rename: t('rename', [{ key: 'F2' }], ({ ui, facts }) => ui.setRenaming(facts.selection?.id ?? null)),
  duplicate: t('duplicate', [{ key: 'd', mod: true }], run.duplicate),
  delete: t('delete', [{ key: 'Delete' }], run.remove),
  moveUp: t('moveUp', [{ key: 'ArrowUp', alt: true }], (env) => run.move(env, -1)),
  moveDown: t('moveDown', [{ key: 'ArrowDown', alt: true }], (env) => run.move(env, 1)),
  commandMenu: t('commandMenu', [{ key: 'k', mod: true }], ({ ui }) => ui.setCommandMenu(true)),
};

// Read once: navigator.platform is a call into the browser, asked for every tooltip on every render.
let mac: boolean | undefined;
const isMac = () => (mac ??= typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform));

const KEY_NAMES: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', Delete: 'Del' };

export function shortcutText(s: Shortcut): string {
  const parts: string[] = [];
  if (s.mod) parts.push(isMac() ? '⌘' : 'Ctrl');
  if (s.alt) parts.push(isMac() ? '⌥' : 'Alt');
  if (s.shift) parts.push('Shift');
  parts.push(KEY_NAMES[s.key] ?? (s.key.length === 1 ? s.key.toUpperCase() : s.key));
  return parts.join('+');
}

/** aria-keyshortcuts syntax ("Control+Z"). */
export function ariaShortcuts(tool: Tool): string | undefined {
  if (!tool.shortcuts.length) return undefined;
  return tool.shortcuts
    .map((s) =>
      [
        s.mod && 'Control',
        s.alt && 'Alt',
        s.shift && 'Shift',
        s.key.length === 1 ? s.key.toUpperCase() : s.key,
      ]
        .filter(Boolean)
        .join('+'),
    )
    .join(' ');
}

export function matches(s: Shortcut, e: KeyboardEvent): boolean {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  // With Alt held, some layouts change e.key; the physical key (e.code) still says which letter.
  const code = e.code.startsWith('Key') ? e.code.slice(3).toLowerCase() : null;
  const keyOk = key === s.key || (s.key.length === 1 && code === s.key);
  return keyOk && !!s.mod === (e.ctrlKey || e.metaKey) && !!s.alt === e.altKey && !!s.shift === e.shiftKey;
}

/** The tooltip: name and shortcut, or name and why it is disabled. */
export function tooltip(env: ToolEnv, tool: Tool): string {
  return tooltipText(env.LL, tool, tool.label(env.LL), disabledReason(env.LL, tool.id, env.facts));
}

/** The tooltip from the tool's name and why it is disabled now (null: enabled). */
export function tooltipText(
  LL: TranslationFunctions,
  tool: Tool,
  name: string,
  reason: string | null,
): string {
  if (reason) return LL.editor.frame.disabledBecause({ name, reason });
  return tool.shortcuts.length
    ? LL.editor.frame.shortcut({ name, keys: tool.shortcuts.map(shortcutText).join(', ') })
    : name;
}

/** Runs a command if it is enabled now; answers whether it ran. */
export function runTool(env: ToolEnv, id: ToolId): boolean {
  if (disabledReason(env.LL, id, env.facts)) return false;
  void TOOLS[id].run(env);
  return true;
}
