import { memo, useCallback, useEffect, useId, useMemo, useRef } from 'react';
import { disabledReason, TOOLBAR, STRUCTURE, type ToolId } from './availability';
import { ariaShortcuts, matches, runTool, tooltipText, TOOLS, type ToolEnv } from './registry';
import { ToolIcon } from './icons';
import { useToolEnv } from './useToolEnv';
import { LanguageSwitch } from '../languages/LanguageSwitch';

// The spec's 14 tools as icon buttons. A disabled tool stays focusable (aria-disabled) so that its
// tooltip, which says why it is disabled, can be read by hovering or tabbing to it.
//
// The buttons are memoised on their texts: a click or an edit changes the tools' facts, and only
// a button whose state, tooltip or pressed state changed renders again.

interface ButtonProps {
  id: ToolId;
  label: string;
  tip: string;
  disabled: boolean;
  pressed: boolean | undefined;
  alignRight: boolean;
  run: (id: ToolId) => void;
}

const ToolButton = memo(function ToolButton({
  id,
  label,
  tip,
  disabled,
  pressed,
  alignRight,
  run,
}: ButtonProps) {
  const tool = TOOLS[id];
  const tipId = useId();
  return (
    <span className="group relative">
      <button
        type="button"
        data-tool={id}
        aria-label={label}
        aria-describedby={tipId}
        aria-disabled={disabled || undefined}
        aria-pressed={pressed}
        aria-keyshortcuts={ariaShortcuts(tool)}
        onClick={() => run(id)}
        className="inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 aria-disabled:cursor-not-allowed aria-disabled:text-slate-400 aria-disabled:hover:bg-transparent aria-pressed:bg-indigo-50 aria-pressed:text-indigo-700"
      >
        <ToolIcon name={tool.icon} />
      </button>
      <span
        id={tipId}
        role="tooltip"
        className={`pointer-events-none absolute top-full z-30 mt-1 hidden w-max max-w-56 rounded bg-slate-800 px-2 py-1 text-xs text-white shadow group-focus-within:block group-hover:block ${alignRight ? 'right-0' : 'left-0'}`}
      >
        {tip}
      </span>
    </span>
  );
});

/** A tool with its name on the button (the structure commands a new user looks for first). */
const LabelledTool = memo(function LabelledTool({ id, label, tip, disabled, run }: ButtonProps) {
  const tool = TOOLS[id];
  return (
    <button
      type="button"
      data-tool={id}
      title={tip}
      aria-disabled={disabled || undefined}
      aria-keyshortcuts={ariaShortcuts(tool)}
      onClick={() => run(id)}
      className="inline-flex h-9 items-center gap-1 rounded-md border border-slate-300 px-2 text-sm text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 aria-disabled:cursor-not-allowed aria-disabled:text-slate-400"
    >
      <ToolIcon name={tool.icon} />
      {label}
    </button>
  );
});

export function Toolbar() {
  const env = useToolEnv();
  const ref = useRef<HTMLDivElement>(null);
  // One stable callback for the memoised buttons; it runs with the facts of the latest render.
  const envRef = useRef(env);
  envRef.current = env;
  const run = useCallback((id: ToolId) => void runTool(envRef.current, id), []);
  const props = (id: ToolId, alignRight = false): ButtonProps => {
    const tool = TOOLS[id];
    const label = tool.label(env.LL);
    const reason = disabledReason(env.LL, id, env.facts);
    return {
      id,
      label,
      tip: tooltipText(env.LL, tool, label, reason),
      disabled: reason !== null,
      pressed: tool.pressed ? tool.pressed(env) : undefined,
      alignRight,
      run,
    };
  };
  // The spec's 14 tools do not depend on the selection: not worked out again on every click.
  const { LL, facts, ui } = env;
  const { state, project, content, canUndo, canRedo, dirty, roleId } = facts;
  const { connections, preview, importing } = ui;
  const toolbar = useMemo(
    () => TOOLBAR.map((id, i) => props(id, i >= 7)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- what the 14 tools read (availability.ts, pressed)
    [LL, state, project, content, canUndo, canRedo, dirty, roleId, connections, preview, importing],
  );
  // Arrow keys move between the tools (one tab stop for the whole toolbar is not needed: every tool
  // stays in the tab order, arrows are a shortcut).
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button[data-tool]') ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0) return;
    buttons[(i + (e.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length].focus();
    e.preventDefault();
  };
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label={env.LL.editor.frame.toolbar()}
      onKeyDown={onKeyDown}
      className="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-white px-2 py-1"
    >
      {TOOLBAR.map((id, i) => (
        <span key={id} className="contents">
          {(i === 2 || i === 7 || i === 10 || i === 12) && (
            <span aria-hidden="true" className="mx-1 h-6 w-px bg-slate-200" />
          )}
          <ToolButton {...toolbar[i]} />
        </span>
      ))}
      <span aria-hidden="true" className="mx-1 h-6 w-px bg-slate-200" />
      {(['addQuestionnaire', 'addBlock', 'addQuestion'] as const).map((id) => (
        <LabelledTool key={id} {...props(id)} />
      ))}
      <span aria-hidden="true" className="mx-1 h-6 w-px bg-slate-200" />
      <LanguageSwitch />
      <ToolButton {...props('commandMenu', true)} />
    </div>
  );
}

const STRUCTURE_KEYS = new Set<ToolId>(STRUCTURE);

/** The commands' keyboard shortcuts, page-wide. Item commands (delete, move…) only act from the outline or the canvas. */
export function useShortcuts(env: ToolEnv) {
  const envRef = useRef(env);
  envRef.current = env;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = !!target?.closest('input, textarea, select, [contenteditable="true"]');
      if (target?.closest('[role="dialog"]')) return;
      const inItems = !!target?.closest('[data-editor-items]');
      for (const id of Object.keys(TOOLS) as ToolId[]) {
        const tool = TOOLS[id];
        if (!tool.shortcuts.some((s) => matches(s, e))) continue;
        // Typing keeps the field's own undo and keys; only save works everywhere.
        if (typing && id !== 'save') return;
        const itemCommand = STRUCTURE_KEYS.has(id) && !id.startsWith('add');
        if (itemCommand && !inItems) return;
        e.preventDefault();
        runTool(envRef.current, id);
        return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
