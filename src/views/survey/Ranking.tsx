import { useState } from 'react';
import type { Page, Reply } from '../../domain/flow';
import { useTexts } from './Texts';

// Ranking: the answers in a list the respondent orders by dragging or with the Up and Down buttons
// (keyboard and screen readers). The reply is every answer in the chosen order.

interface Props {
  page: Page;
  value: Reply;
  onChange: (r: Reply) => void;
  describedBy?: string;
}

export function Ranking({ page, value, onChange, describedBy }: Props) {
  const { s } = useTexts();
  const order = value.answers?.length ? value.answers : page.answers.map((a) => a.id);
  const byId = new Map(page.answers.map((a) => [a.id, a]));
  const [dragging, setDragging] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const move = (from: number, to: number) => {
    if (to < 0 || to >= order.length || from === to) return;
    const next = order.slice();
    const [x] = next.splice(from, 1);
    next.splice(to, 0, x);
    onChange({ answers: next });
    setAnnounce(`${byId.get(x)?.text ?? ''}: ${s.rank(to + 1)}`);
  };
  const button =
    'flex size-11 items-center justify-center rounded-md border border-slate-300 bg-white text-lg disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-indigo-600';
  return (
    <div>
      <p id={`${page.question.id}-hint`} className="mb-2 text-sm text-slate-600">
        {s.rankHint}
      </p>
      <ol
        className="flex flex-col gap-2"
        aria-describedby={`${page.question.id}-hint ${describedBy ?? ''}`.trim()}
      >
        {order.map((id, i) => {
          const a = byId.get(id);
          if (!a) return null;
          return (
            <li
              key={id}
              draggable
              onDragStart={(e) => {
                setDragging(i);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', id);
              }}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (dragging !== null) move(dragging, i);
                setDragging(null);
              }}
              onDragEnd={() => setDragging(null)}
              className={`flex items-center gap-2 rounded-lg border bg-white p-2 ${dragging === i ? 'border-indigo-600 opacity-60' : 'border-slate-300'} cursor-grab`}
            >
              <span className="w-8 shrink-0 text-center font-semibold text-slate-700" aria-hidden="true">
                {i + 1}
              </span>
              <span className="sr-only">{s.rank(i + 1)}:</span>
              {a.picture && (
                <img src={a.picture} alt="" className="h-12 w-12 rounded object-cover" loading="lazy" />
              )}
              <span className="min-w-0 flex-1 break-words">{a.text}</span>
              <button
                type="button"
                className={button}
                aria-label={s.moveUp(a.text)}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                className={button}
                aria-label={s.moveDown(a.text)}
                disabled={i === order.length - 1}
                onClick={() => move(i, i + 1)}
              >
                ↓
              </button>
            </li>
          );
        })}
      </ol>
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}
