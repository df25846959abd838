import { lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { GameStatus, type GameStatusId } from '../../domain/gameStatus';
import type { Game } from '../../domain/games';
import { Role } from '../../domain/roles';
import { api } from '../../api/client';
import { deleteGame, GAMES_PATH, updateGame } from '../../api/games';
import { useCurrentUser } from '../auth/AuthProvider';
import { useList, tableProps } from '../ui/useList';
import { DataTable, type Column } from '../ui/DataTable';
import { PageHeader } from '../ui/PageHeader';
import { SearchBox } from '../ui/SearchBox';
import { Button, IconButton } from '../ui/Button';
import { confirm } from '../ui/confirm';
import { enqueueModal } from '../ui/modal';
import { notify } from '../ui/toast';
import { CloseIcon } from '../ui/icons';
import type { GameFormResult } from './GameForm';
import { ConnectionPanel, SDK_POLL_MS } from './ConnectionPanel';
import { GameStatusBadge, GameStatusSelect, gameStatusName } from './GameStatus';
import { errorMessage } from './format';
import { EditIcon, KeyIcon, PlusIcon, Svg, TrashIcon } from '../ui/icons';
import { GameStatsPanel } from './GameStatsPanel';

// The form (organization picker, lookups, validation) loads when it opens, not with the list.
const GameForm = lazy(() => import('./GameForm').then((m) => ({ default: m.GameForm })));

// /games (spec section 2): Administrators see every organization's games and can narrow the list to
// one; Issuers their own organization's (the server decides, GET /games?oid). The table is paged,
// sorted and searched on the server. While a game on the page awaits its SDK, the page checks
// quietly for the handshake so the status changes without a reload.
export default function GamesPage() {
  const { LL } = useI18nContext();
  const me = useCurrentUser();
  const isAdmin = me?.role.id === Role.Administrator;
  const [org, setOrg] = useState<{ id: number; name: string } | null>(null);
  const list = useList<Game>(GAMES_PATH, {
    query: { oid: org?.id ?? 0 },
    initialSort: { key: 'createdAt', order: 'desc' },
  });
  const [changing, setChanging] = useState<number | null>(null);

  const showConnection = useCallback(
    (game: Game, secrets?: { apiKey: string; token: string }) =>
      enqueueModal<void>({
        title: secrets
          ? LL.games.secrets.onceTitle({ name: game.name })
          : LL.games.secrets.title({ name: game.name }),
        wide: true,
        render: (close) => (
          <ConnectionPanel
            initialGame={game}
            initialSecrets={secrets}
            onChanged={list.reload}
            onClose={() => close()}
          />
        ),
      }),
    [LL, list.reload],
  );

  const showStats = (game: Game) =>
    enqueueModal<void>({
      title: LL.players.stats.title({ name: game.name }),
      wide: true,
      render: (close) => <GameStatsPanel game={game} onClose={() => close()} />,
    });

  const add = async () => {
    const result = await enqueueModal<GameFormResult>({
      title: LL.games.form.createTitle(),
      render: (close) => <GameForm onDone={close} />,
    });
    if (result && 'created' in result) {
      list.reload();
      await showConnection(result.created.game, result.created.secrets);
    }
  };
  const edit = async (game: Game) => {
    const result = await enqueueModal<GameFormResult>({
      title: LL.games.form.editTitle({ name: game.name }),
      render: (close) => <GameForm game={game} onDone={close} />,
    });
    if (result) list.reload();
  };
  const remove = async (game: Game) => {
    const ok = await confirm({
      title: LL.games.delete.title(),
      text: LL.games.delete.text({ name: game.name }),
      agreeLabel: LL.common.delete(),
      danger: true,
    });
    if (!ok) return;
    try {
      await deleteGame(game.id);
      notify.success(LL.games.delete.done({ name: game.name }));
    } catch (err) {
      notify.error(errorMessage(err));
    }
    list.reload();
  };
  const changeStatus = async (game: Game, to: GameStatusId) => {
    const from = gameStatusName(LL, game.statusId);
    const toName = gameStatusName(LL, to);
    const ok = await confirm({
      title: LL.games.statusChange.title(),
      text: LL.games.statusChange.text({ name: game.name, from, to: toName }),
    });
    // The select is controlled: on Cancel it shows the current status again by itself.
    if (!ok) return;
    setChanging(game.id);
    try {
      await updateGame({ gameId: game.id, statusId: to });
      notify.success(LL.games.statusChange.done({ name: game.name, to: toName }));
    } catch (err) {
      notify.error(errorMessage(err));
    }
    setChanging(null);
    list.reload();
  };

  useQuietRefresh(list.rows, list.reload, {
    page: list.page,
    search: list.search,
    sort: list.sort,
    oid: org?.id ?? 0,
  });

  const columns: Column<Game>[] = [
    {
      key: 'name',
      header: LL.games.columns.name(),
      sortable: true,
      className: 'min-w-[9rem]',
      render: (g) => <span className="font-medium text-slate-800">{g.name}</span>,
    },
    { key: 'genre', header: LL.games.columns.genre(), sortable: true, render: (g) => g.genre.name },
    { key: 'platform', header: LL.games.columns.platform(), sortable: true, render: (g) => g.platform.name },
    {
      key: 'organization',
      header: LL.games.columns.organization(),
      sortable: true,
      render: (g) =>
        isAdmin && org?.id !== g.organization.id ? (
          <button
            type="button"
            className="text-left text-indigo-700 hover:underline"
            title={LL.games.filter.byOrganization({ name: g.organization.name })}
            onClick={() => setOrg(g.organization)}
          >
            {g.organization.name}
          </button>
        ) : (
          g.organization.name
        ),
    },
    {
      key: 'status',
      header: LL.games.columns.status(),
      sortable: true,
      render: (g) =>
        isAdmin ? (
          <GameStatusSelect
            game={g}
            disabled={changing === g.id}
            onChange={(to) => void changeStatus(g, to)}
          />
        ) : (
          <GameStatusBadge status={g.statusId} />
        ),
    },
    {
      key: 'url',
      header: LL.games.columns.url(),
      sortable: true,
      className: 'max-w-[11rem]',
      // The host says where the game is; the whole address is in the tooltip and the link.
      render: (g) => (
        <a
          href={g.url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="block truncate text-indigo-700 hover:underline"
          title={g.url}
        >
          {hostOf(g.url)}
        </a>
      ),
    },
    {
      key: 'currency',
      header: LL.games.columns.currency(),
      sortable: true,
      render: (g) => <abbr title={g.currency.name}>{g.currency.code}</abbr>,
    },
  ];

  return (
    <section className="p-6">
      <PageHeader
        title={LL.games.title()}
        actions={
          <Button onClick={() => void add()}>
            <PlusIcon />
            {LL.games.add()}
          </Button>
        }
      />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <SearchBox label={LL.games.search()} value={list.search} onChange={list.setSearch} />
        {org && (
          <span className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-1 pl-3 pr-1 text-sm text-indigo-800">
            {LL.games.filter.organization({ name: org.name })}
            <IconButton label={LL.games.filter.clear()} className="h-6 w-6" onClick={() => setOrg(null)}>
              <CloseIcon className="h-3.5 w-3.5" />
            </IconButton>
          </span>
        )}
      </div>
      <DataTable
        caption={LL.games.caption()}
        columns={columns}
        {...tableProps(list)}
        rowKey={(g) => g.id}
        emptyText={list.search ? LL.games.emptySearch() : LL.games.empty()}
        actions={(g) => (
          <div className="inline-flex gap-1">
            <IconButton label={LL.players.stats.open({ name: g.name })} onClick={() => void showStats(g)}>
              <ChartIcon />
            </IconButton>
            <IconButton
              label={LL.games.actions.connection({ name: g.name })}
              onClick={() => void showConnection(g)}
            >
              <KeyIcon />
            </IconButton>
            <IconButton label={LL.games.actions.edit({ name: g.name })} onClick={() => void edit(g)}>
              <EditIcon />
            </IconButton>
            <IconButton
              label={LL.games.actions.delete({ name: g.name })}
              onClick={() => void remove(g)}
              className="hover:text-red-800"
            >
              <TrashIcon />
            </IconButton>
          </div>
        )}
      />
    </section>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * While a row awaits its SDK, asks the server for the same page every few seconds without the
 * loading bar, and reloads the list only when a status changed. Stops when the tab is hidden.
 */
function useQuietRefresh(
  rows: Game[],
  reload: () => void,
  q: { page: number; search: string; sort?: { key: string; order: string }; oid: number },
) {
  const waiting = rows.some((g) => g.statusId === GameStatus.AwaitingSdk);
  const statuses = rows.map((g) => `${g.id}:${g.statusId}`).join(',');
  const query = useRef(q);
  useEffect(() => {
    query.current = q;
  });
  useEffect(() => {
    if (!waiting) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      const { page, search, sort, oid } = query.current;
      api
        .list<Game>(GAMES_PATH, {
          query: {
            page,
            pageSize: 20,
            search: search || undefined,
            sort: sort?.key,
            order: sort?.order,
            oid,
          },
          signal: controller.signal,
        })
        .then(
          ({ items }) => {
            if (items.map((g) => `${g.id}:${g.statusId}`).join(',') !== statuses) reload();
          },
          () => {},
        );
    }, SDK_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [waiting, statuses, reload]);
}

/** The row's "numbers" action: a small line chart. */
const ChartIcon = () => (
  <Svg className="h-4 w-4">
    <path d="M3 3v18h18M7 15l4-4 3 3 5-6" />
  </Svg>
);
