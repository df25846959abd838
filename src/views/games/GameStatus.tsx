import { useId } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import { adminTargets, type GameStatusId } from '../../domain/gameStatus';
import type { Game } from '../../domain/games';

// A game's status as a coloured badge, and the Administrator's selector, which offers exactly the
// statuses the machine in src/domain allows from the current one.

export const gameStatusName = (LL: TranslationFunctions, id: GameStatusId) =>
  LL.games.status[String(id) as '1'](); // every id has a text

const COLORS: Record<GameStatusId, string> = {
  1: 'bg-amber-50 text-amber-900 ring-amber-200',
  2: 'bg-sky-50 text-sky-800 ring-sky-200',
  3: 'bg-violet-50 text-violet-800 ring-violet-200',
  4: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  5: 'bg-slate-100 text-slate-700 ring-slate-300',
};

export function GameStatusBadge({ status }: { status: GameStatusId }) {
  const { LL } = useI18nContext();
  return (
    <span
      data-status={status}
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${COLORS[status]}`}
    >
      {gameStatusName(LL, status)}
    </span>
  );
}

export function GameStatusSelect({
  game,
  onChange,
  disabled,
}: {
  game: Game;
  onChange: (to: GameStatusId) => void;
  disabled?: boolean;
}) {
  const { LL } = useI18nContext();
  const id = useId();
  const targets = adminTargets(game.statusId, { sdkConnected: game.sdkConnectedAt !== null });
  if (targets.length === 0) return <GameStatusBadge status={game.statusId} />;
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {LL.games.actions.changeStatus({ name: game.name })}
      </label>
      <select
        id={id}
        value={game.statusId}
        disabled={disabled}
        onChange={(e) => onChange(Number(e.target.value) as GameStatusId)}
        className={`rounded-full border-0 py-0.5 pl-2 pr-7 text-xs font-medium ring-1 ring-inset focus:ring-2 focus:ring-indigo-500 ${COLORS[game.statusId]}`}
      >
        <option value={game.statusId}>{gameStatusName(LL, game.statusId)}</option>
        {targets.map((t) => (
          <option key={t.status} value={t.status}>
            {gameStatusName(LL, t.status)}
          </option>
        ))}
      </select>
    </>
  );
}
