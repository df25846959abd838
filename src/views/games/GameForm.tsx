import { useState, type FormEvent } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { GameCreateBody, GameUpdateBody, type Game, type GameWithSecrets } from '../../domain/games';
import { can } from '../../domain/permissions';
import { Role } from '../../domain/roles';
import { OrganizationType } from '../../domain/organizations';
import { ApiError } from '../../api/client';
import { createGame, createGenre, createPlatform, updateGame } from '../../api/games';
import { useCurrentUser } from '../auth/AuthProvider';
import { OrganizationPicker, type PickedOrganization } from '../users/OrganizationPicker';
import { useCategories } from '../users/useCategories';
import { Field } from '../ui/Field';
import { Button } from '../ui/Button';
import { formErrors } from '../ui/validation';
import { notify } from '../ui/toast';
import { LookupSelect } from './LookupSelect';
import { useLookups } from './useLookups';
import { errorMessage } from './format';

export type GameFormResult = { created: GameWithSecrets } | { saved: Game };

const num = (s: string) => (s === '' ? undefined : Number(s));

// Registers a game or edits one. The fields are checked with the same schema as the server; what
// only the server can know (a taken name, a lookup deleted meanwhile) comes back on its field.
export function GameForm({ game, onDone }: { game?: Game; onDone: (result?: GameFormResult) => void }) {
  const { LL } = useI18nContext();
  const me = useCurrentUser();
  const isAdmin = me?.role.id === Role.Administrator;
  const lookups = useLookups();
  const categories = useCategories();
  const [name, setName] = useState(game?.name ?? '');
  const [genreId, setGenreId] = useState(game ? String(game.genre.id) : '');
  const [platformId, setPlatformId] = useState(game ? String(game.platform.id) : '');
  const [currencyId, setCurrencyId] = useState(game ? String(game.currency.id) : '');
  const [url, setUrl] = useState(game?.url ?? 'https://');
  const [organization, setOrganization] = useState<PickedOrganization | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  // Roubles first for a new game: most games on the platform are sold for them.
  const currency =
    currencyId || (game ? '' : String(lookups.currencies.find((c) => c.code === 'RUB')?.id ?? ''));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const values = {
      name,
      genreId: num(genreId),
      platformId: num(platformId),
      currencyId: num(currency),
      url: url.trim() === 'https://' ? '' : url,
    };
    const checked = game
      ? formErrors(LL, GameUpdateBody, { gameId: game.id, ...values })
      : formErrors(LL, GameCreateBody, {
          ...values,
          ...(isAdmin && organization ? { organizationId: organization.id } : {}),
        });
    const found = checked.ok ? {} : { ...checked.errors };
    if (!game && isAdmin && !organization) found.organizationId = LL.validation.required();
    setErrors(found);
    if (!checked.ok || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      if (game) {
        const saved = await updateGame(checked.output as GameUpdateBody);
        notify.success(LL.games.form.saved({ name: saved.name }));
        onDone({ saved });
      } else {
        const created = await createGame(checked.output as GameCreateBody);
        notify.success(LL.games.form.created({ name: created.game.name }));
        onDone({ created });
      }
    } catch (err) {
      const field = err instanceof ApiError ? (err.body as { field?: string } | null)?.field : undefined;
      if (field) setErrors({ [field]: errorMessage(err) });
      else notify.error(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      {lookups.error && (
        <div
          role="alert"
          className="flex items-center justify-between gap-2 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {LL.games.form.lookupsFailed({ message: lookups.error })}
          <Button variant="secondary" onClick={lookups.reload}>
            {LL.common.retry()}
          </Button>
        </div>
      )}
      <Field
        label={LL.games.form.name()}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        maxLength={200}
      />
      <LookupSelect
        label={LL.games.form.genre()}
        value={genreId}
        onChange={setGenreId}
        items={lookups.genres}
        error={errors.genreId}
        create={{
          label: LL.games.form.newGenre(),
          nameLabel: LL.games.form.newGenreName(),
          added: (n) => LL.games.form.genreAdded({ name: n }),
          call: createGenre,
          onCreated: lookups.addGenre,
        }}
      />
      <LookupSelect
        label={LL.games.form.platform()}
        value={platformId}
        onChange={setPlatformId}
        items={lookups.platforms}
        error={errors.platformId}
        create={
          can(me?.role.id, 'games.create-platform')
            ? {
                label: LL.games.form.newPlatform(),
                nameLabel: LL.games.form.newPlatformName(),
                added: (n) => LL.games.form.platformAdded({ name: n }),
                call: createPlatform,
                onCreated: lookups.addPlatform,
              }
            : undefined
        }
      />
      <LookupSelect
        label={LL.games.form.currency()}
        value={currency}
        onChange={setCurrencyId}
        items={lookups.currencies.map((c) => ({ id: c.id, name: `${c.code} — ${c.name}` }))}
        error={errors.currencyId}
      />
      <div className="flex flex-col gap-1">
        <Field
          label={LL.games.form.url()}
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
        />
        <p className="text-xs text-slate-600">{LL.games.form.urlHint()}</p>
      </div>
      {isAdmin && !game && (
        <OrganizationPicker
          value={organization}
          onChange={setOrganization}
          error={errors.organizationId}
          categories={categories}
          defaultType={OrganizationType.GamePublisher}
        />
      )}
      {game && (
        <p className="text-sm text-slate-600">
          {LL.games.form.organization()}:{' '}
          <span className="font-medium text-slate-800">{game.organization.name}</span>
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone()}>
          {LL.common.cancel()}
        </Button>
        <Button type="submit" disabled={busy || lookups.loading}>
          {busy ? LL.games.form.saving() : game ? LL.common.save() : LL.common.create()}
        </Button>
      </div>
    </form>
  );
}
