import { useId, useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { Game } from '../../domain/games';
import type { PlayerRecord } from '../../domain/players';
import { ApiError } from '../../api/client';
import { erasePlayer, getPlayer } from '../../api/players';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { errorMessage } from './format';

// A player's record in the game's dialog on /games (issue 24, part 2): the publisher looks a player
// up by their SDK id, sees what their answers wrote, and erases it at the player's request. The
// erasure is confirmed inline: modals are queued one at a time, so a second dialog would wait.

type State =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'found'; record: PlayerRecord }
  | { kind: 'missing'; playerId: string }
  | { kind: 'erased'; message: string }
  | { kind: 'failed'; message: string };

export function PlayerRecordPanel({ game }: { game: Game }) {
  const { LL, locale } = useI18nContext();
  const T = LL.players.record;
  const headingId = useId();
  const [playerId, setPlayerId] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [confirming, setConfirming] = useState(false);

  const find = async (e: FormEvent) => {
    e.preventDefault();
    const id = playerId.trim();
    if (!id) return;
    setConfirming(false);
    setState({ kind: 'busy' });
    try {
      setState({ kind: 'found', record: await getPlayer(game.id, id) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setState({ kind: 'missing', playerId: id });
      else setState({ kind: 'failed', message: errorMessage(err) });
    }
  };
  const erase = async (id: string) => {
    setState({ kind: 'busy' });
    setConfirming(false);
    try {
      const r = await erasePlayer(game.id, id);
      setState({
        kind: 'erased',
        message: (r.record ? T.erased : T.nothing)({ respondents: r.respondents }),
      });
    } catch (err) {
      setState({ kind: 'failed', message: errorMessage(err) });
    }
  };
  const shown = (v: string | number | null) => (v === null || v === '' ? T.none() : String(v));
  const target =
    state.kind === 'found' ? state.record.playerId : state.kind === 'missing' ? state.playerId : null;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {T.title()}
      </h3>
      <p className="text-sm text-slate-700">{T.hint()}</p>
      <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => void find(e)}>
        <Field
          label={T.playerId()}
          value={playerId}
          maxLength={128}
          autoComplete="off"
          onChange={(e) => setPlayerId(e.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={!playerId.trim() || state.kind === 'busy'}>
          {T.find()}
        </Button>
      </form>
      <div aria-live="polite" className="flex flex-col gap-3 text-sm">
        {state.kind === 'busy' && (
          <div role="progressbar" aria-label={LL.common.loading()} className="h-1 w-full bg-indigo-100">
            <div className="h-full w-1/3 animate-pulse bg-indigo-600" />
          </div>
        )}
        {state.kind === 'failed' && <p className="text-red-800">{state.message}</p>}
        {state.kind === 'erased' && <p className="text-emerald-800">{state.message}</p>}
        {state.kind === 'missing' && <p className="text-slate-700">{LL.players.errors.playerNotFound()}</p>}
        {state.kind === 'found' && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="player-record">
            <dt className="text-slate-600">{LL.projects.targetFields.gender()}</dt>
            <dd className="text-slate-900">
              {state.record.gender
                ? LL.projects.gender[state.record.gender as 'male' | 'female']()
                : T.none()}
            </dd>
            <dt className="text-slate-600">{LL.projects.targetFields.age()}</dt>
            <dd className="text-slate-900">{shown(state.record.age)}</dd>
            <dt className="text-slate-600">{LL.projects.targetFields.city()}</dt>
            <dd className="text-slate-900">{shown(state.record.city)}</dd>
            <dt className="text-slate-600">{LL.projects.targetFields.education()}</dt>
            <dd className="text-slate-900">
              {state.record.education
                ? LL.projects.education[state.record.education as 'higher']()
                : T.none()}
            </dd>
            {Object.entries(state.record.fields).map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-mono text-slate-600">{name}</dt>
                <dd className="break-words text-slate-900">{value}</dd>
              </div>
            ))}
            <dt className="text-slate-600">{T.updated()}</dt>
            <dd className="text-slate-900">{new Date(state.record.updatedAt).toLocaleString(locale)}</dd>
          </dl>
        )}
        {target !== null &&
          (confirming ? (
            <div className="flex flex-col gap-2 rounded border border-red-200 bg-red-50 p-3">
              <p className="text-red-900">{T.eraseAsk({ playerId: target })}</p>
              <div className="flex flex-wrap gap-2">
                <Button variant="danger" onClick={() => void erase(target)}>
                  {T.eraseConfirm()}
                </Button>
                <Button variant="secondary" onClick={() => setConfirming(false)}>
                  {T.cancel()}
                </Button>
              </div>
            </div>
          ) : (
            <div>
              <Button variant="danger" onClick={() => setConfirming(true)}>
                {T.erase()}
              </Button>
            </div>
          ))}
      </div>
    </section>
  );
}
