import { useEffect, useId, useRef, useState } from 'react';
import { disabledReason, STRUCTURE, TOOLBAR, type ToolId } from './availability';
import { runTool, shortcutText, TOOLS, type ToolEnv } from './registry';

// Every command by name (Ctrl+K): a search field over a list; Enter runs the highlighted command,
// a disabled one shows why instead. The same command objects as the toolbar and the keyboard.

const ALL: ToolId[] = [...TOOLBAR, ...STRUCTURE];

export function CommandMenu({ env }: { env: ToolEnv }) {
  const { LL, ui } = env;
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const titleId = useId();
  useEffect(() => input.current?.focus(), []);
  const q = query.trim().toLowerCase();
  const items = ALL.filter((id) => TOOLS[id].label(LL).toLowerCase().includes(q));
  const close = () => ui.setCommandMenu(false);
  const choose = (id: ToolId) => {
    if (disabledReason(LL, id, env.facts)) return;
    close();
    runTool(env, id);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') setActive((a) => Math.min(items.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter' && items[active]) choose(items[active]);
    else return;
    e.preventDefault();
  };
  return (
    <div
      className="fixed inset-0 z-40 flex items-start justify-center bg-slate-900/30 p-4 pt-24"
      onClick={close}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="w-full max-w-md rounded-lg bg-white shadow-xl"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="px-4 pt-3 text-sm font-semibold text-slate-800">
          {LL.editor.frame.commandMenu.title()}
        </h2>
        <div className="p-3">
          <input
            ref={input}
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={items[active] ? `${listId}-${items[active]}` : undefined}
            aria-label={LL.editor.frame.commandMenu.search()}
            placeholder={LL.editor.frame.commandMenu.search()}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            className="w-full rounded border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <ul
          id={listId}
          role="listbox"
          aria-label={LL.editor.frame.commandMenu.title()}
          className="max-h-80 overflow-auto pb-2"
        >
          {items.length === 0 && (
            <li className="px-4 py-2 text-sm text-slate-600">{LL.editor.frame.commandMenu.none()}</li>
          )}
          {items.map((id, i) => {
            const reason = disabledReason(LL, id, env.facts);
            return (
              <li
                key={id}
                id={`${listId}-${id}`}
                role="option"
                aria-selected={i === active}
                aria-disabled={reason ? true : undefined}
                data-command={id}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(id)}
                className={`flex cursor-pointer items-center justify-between gap-3 px-4 py-2 text-sm ${i === active ? 'bg-indigo-50' : ''} ${reason ? 'text-slate-500' : 'text-slate-900'}`}
              >
                <span>
                  {TOOLS[id].label(LL)}
                  {reason && <span className="block text-xs text-slate-600">{reason}</span>}
                </span>
                {TOOLS[id].shortcuts[0] && (
                  <kbd className="rounded border border-slate-300 px-1 text-xs text-slate-600">
                    {shortcutText(TOOLS[id].shortcuts[0])}
                  </kbd>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
