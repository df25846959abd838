import { useEffect, useId, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { GameStatus } from '../../domain/gameStatus';
import type { Game, GameSecrets } from '../../domain/games';
import { API_BASE } from '../../api/client';
import { getGame, regenerateSecrets } from '../../api/games';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { CopyField } from './CopyField';
import { GameStatusBadge } from './GameStatus';
import { errorMessage, formatDateTime } from './format';
import { RefreshIcon } from '../ui/icons';

/** How often the dialog asks whether the SDK has connected, while it waits for that. */
export const SDK_POLL_MS = 3000;

// A game's connection: its API key and token (in full right after they were made, masked
// afterwards), where it stands with the SDK, and new keys on request. While the game awaits the
// handshake the dialog watches for it, so an issuer wiring up their SDK sees the moment it works.
export function ConnectionPanel({
  initialGame,
  initialSecrets,
  onChanged,
  onClose,
}: {
  initialGame: Game;
  initialSecrets?: GameSecrets;
  /** The game changed (new keys, a handshake): the list behind should refresh. */
  onChanged: () => void;
  onClose: () => void;
}) {
  const { LL, locale } = useI18nContext();
  const [game, setGame] = useState(initialGame);
  const [secrets, setSecrets] = useState(initialSecrets);
  const [busy, setBusy] = useState(false);
  const awaiting = game.statusId === GameStatus.AwaitingSdk;

  useEffect(() => {
    if (!awaiting) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      getGame(game.id, controller.signal).then(
        (fresh) => {
          if (fresh.statusId !== game.statusId) {
            setGame(fresh);
            onChanged();
          }
        },
        () => {},
      );
    }, SDK_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [awaiting, game.id, game.statusId, onChanged]);

  // Asked inline: modals are queued one at a time, so a confirm() here would wait for this one.
  const [confirming, setConfirming] = useState(false);
  const howToId = useId();
  const regenerate = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      const answer = await regenerateSecrets(game.id);
      setGame(answer.game);
      setSecrets(answer.secrets);
      onChanged();
      notify.success(LL.games.secrets.regenerated({ name: game.name }));
    } catch (err) {
      notify.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const endpoint = `${window.location.origin}${API_BASE}/games/sdk`;
  const example = `POST ${endpoint}\nContent-Type: application/json\n\n${JSON.stringify(
    { apiKey: secrets?.apiKey ?? game.apiKeyMasked, token: secrets?.token ?? game.tokenMasked },
    null,
    2,
  )}`;

  return (
    <div className="flex flex-col gap-4">
      {secrets && (
        <p
          role="note"
          className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {LL.games.secrets.onceWarning()}
        </p>
      )}
      <CopyField
        label={LL.games.secrets.apiKey()}
        value={secrets?.apiKey ?? game.apiKeyMasked}
        copyable={!!secrets}
      />
      <CopyField
        label={LL.games.secrets.token()}
        value={secrets?.token ?? game.tokenMasked}
        copyable={!!secrets}
      />

      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-600">{LL.games.secrets.status()}</dt>
        <dd aria-live="polite" data-testid="connection-status">
          <GameStatusBadge status={game.statusId} />
        </dd>
        <dt className="text-slate-600">{LL.games.secrets.connectedAt()}</dt>
        <dd>
          {game.sdkConnectedAt ? formatDateTime(locale, game.sdkConnectedAt) : LL.games.secrets.never()}
        </dd>
        <dt className="text-slate-600">{LL.games.secrets.lastContact()}</dt>
        <dd>{game.lastSdkAt ? formatDateTime(locale, game.lastSdkAt) : LL.games.secrets.never()}</dd>
      </dl>

      {awaiting && (
        <div className="flex items-center gap-2 text-sm text-slate-600">
          <span className="h-2 w-2 animate-pulse rounded-full bg-amber-500" aria-hidden="true" />
          {LL.games.secrets.waiting()}
        </div>
      )}

      <div className="flex flex-col gap-1">
        <p id={howToId} className="text-sm text-slate-700">
          {LL.games.secrets.howTo()}
        </p>
        {/* Wider than a phone: it scrolls, so the keyboard must be able to reach it too. */}
        <pre
          tabIndex={0}
          role="region"
          aria-labelledby={howToId}
          className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {example}
        </pre>
      </div>

      {confirming ? (
        <div
          role="alertdialog"
          aria-labelledby="regen-title"
          className="flex flex-col gap-2 rounded border border-red-200 bg-red-50 p-3"
        >
          <p id="regen-title" className="font-medium text-red-900">
            {LL.games.secrets.regenerateTitle()}
          </p>
          <p className="text-sm text-red-900">{LL.games.secrets.regenerateText()}</p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)} data-autofocus>
              {LL.common.cancel()}
            </Button>
            <Button variant="danger" onClick={() => void regenerate()}>
              {LL.games.secrets.regenerate()}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap justify-between gap-2">
          <Button variant="secondary" onClick={() => setConfirming(true)} disabled={busy}>
            <RefreshIcon />
            {LL.games.secrets.regenerate()}
          </Button>
          <Button onClick={onClose}>{LL.games.secrets.done()}</Button>
        </div>
      )}
    </div>
  );
}
