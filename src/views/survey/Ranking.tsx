import { useRef, useState, type PointerEvent } from 'react';
import type { Page, Reply } from '../../domain/flow';
import { useTexts } from './Texts';

// Ranking: the answers in a list the respondent orders by dragging or with the Up and Down buttons
// (keyboard and screen readers). The reply is every answer in the chosen order. The order shown
// first is not an answer until the respondent moves an answer or says it is right ("This order is
// right"): taken silently it would record an order nobody chose (the order of the list, the
// strongest bias a ranking has), and asked for without that button a respondent who agreed with
// it had to move an answer and move it back.
// Dragging uses Pointer Events, so a mouse, a pen and a finger all work: a mouse drags a row from
// anywhere but its buttons; a finger drags by the grip at the row's start (touch-action: none
// there only, so a finger elsewhere on a row still scrolls the page on a phone).

interface Props {
  page: Page;
  value: Reply;
  onChange: (r: Reply) => void;
  describedBy?: string;
}

export function Ranking({ page, value, onChange, describedBy }: Props) {
  const { s } = useTexts();
  const chosen = !!value.answers?.length;
  const order = chosen ? value.answers! : page.answers.map((a) => a.id);
  const byId = new Map(page.answers.map((a) => [a.id, a]));
  const [drag, setDrag] = useState<Drag | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const [announce, setAnnounce] = useState('');
  const move = (from: number, to: number) => {
    if (to < 0 || to >= order.length || from === to) return;
    const next = order.slice();
    const [x] = next.splice(from, 1);
    next.splice(to, 0, x);
    onChange({ answers: next });
    setAnnounce(`${byId.get(x)?.text ?? ''}: ${s.rank(to + 1)}`);
  };
  /** Where the dragged row would land: the other rows whose middle is above the pointer. */
  const slotAt = (from: number, y: number) => {
    const rows = Array.from(list.current?.children ?? []);
    return rows.filter((row, j) => {
      const r = row.getBoundingClientRect();
      return j !== from && r.top + r.height / 2 < y;
    }).length;
  };
  const start = (e: PointerEvent<HTMLLIElement>, i: number) => {
    const target = e.target as HTMLElement;
    if (drag || e.button !== 0 || target.closest('button')) return;
    if (e.pointerType !== 'mouse' && !target.closest('[data-grip]')) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ from: i, to: i, pointer: e.pointerId, y0: e.clientY, dy: 0 });
  };
  const follow = (e: PointerEvent<HTMLLIElement>) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    setDrag({ ...drag, to: slotAt(drag.from, e.clientY), dy: e.clientY - drag.y0 });
  };
  const drop = (e: PointerEvent<HTMLLIElement>) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    setDrag(null);
    move(drag.from, slotAt(drag.from, e.clientY));
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
              onPointerDown={(e) => start(e, i)}
              onPointerMove={follow}
              onPointerUp={drop}
              onPointerCancel={() => setDrag(null)}
              style={drag?.from === i ? { transform: `translateY(${drag.dy}px)` } : undefined}
              className={`relative flex items-center gap-2 rounded-lg border bg-white p-2 select-none ${
                drag?.from === i
                  ? 'z-10 border-indigo-600 shadow-lg'
                  : drag && drag.to === i && drag.to !== drag.from
                    ? 'border-indigo-600 ring-2 ring-indigo-200'
                    : 'border-slate-300'
              } cursor-grab`}
            >
              <span
                data-grip
                className="flex h-11 w-6 shrink-0 touch-none items-center justify-center text-slate-500"
                aria-hidden="true"
              >
                ⠿
              </span>
              <span
                data-grip
                className="w-8 shrink-0 touch-none text-center font-semibold text-slate-700"
                aria-hidden="true"
              >
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
      {chosen ? (
        <p className="mt-2 text-sm text-slate-600">{s.orderKept}</p>
      ) : (
        <button
          type="button"
          className="mt-3 min-h-11 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          onClick={() => {
            onChange({ answers: order });
            setAnnounce(s.orderKept);
          }}
        >
          {s.keepOrder}
        </button>
      )}
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}

interface Drag {
  from: number;
  /** The index the row would take if dropped now. */
  to: number;
  pointer: number;
  y0: number;
  /** How far the row has been dragged, so it follows the pointer. */
  dy: number;
}
