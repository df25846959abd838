import { useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { findCities, getTargetFields } from '../../../api/lookups';
import { LIMITS } from '../../../domain/content/limits';
import type { Portrait, PortraitParam } from '../../../domain/content/model';
import { checkContent } from '../../../domain/content/rules';
import type { City, TargetField } from '../../../domain/lookups';
import { ProjectType } from '../../../domain/projects';
import { useI18nContext } from '../../../i18n/i18n-react';
import { Button, IconButton } from '../../ui/Button';
import { TrashIcon } from '../../ui/icons';
import { problemText } from '../problemText';
import { Checkbox, Label, NumberField, Select, TextField } from '../panels/controls';
import type { EditorActorRef } from './index';

// The portraits of a target project (spec section 3): who answers and how many. Each portrait has
// a name, its respondents, the questionnaire they take and target conditions built from
// GET /target-fields (gender, age within bounds, cities through the lookup, education). Every
// change is one edit (change-log 003) and undoable; the rules' messages show live under the
// portrait they name, the 405xx codes in words.

type Send = (
  p:
    | { type: 'portrait.add' }
    | { type: 'portrait.update'; portraitId: string; patch: Partial<Portrait> }
    | { type: 'portrait.delete'; portraitId: string },
) => void;

function useTargetFields() {
  const [state, setState] = useState<{ fields: TargetField[] | null; error: string | null }>({
    fields: null,
    error: null,
  });
  useEffect(() => {
    let live = true;
    getTargetFields()
      .then((fields) => live && setState({ fields, error: null }))
      .catch((err: unknown) => live && setState({ fields: null, error: (err as Error).message }));
    return () => {
      live = false;
    };
  }, []);
  return state;
}

function CityPicker({
  param,
  disabled,
  onChange,
}: {
  param: PortraitParam;
  disabled: boolean;
  onChange: (values: string[]) => void;
}) {
  const { LL } = useI18nContext();
  const id = useId();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<City[]>([]);
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    if (search.trim() === '') return setFound([]);
    const ctrl = new AbortController();
    const t = setTimeout(() => {
      findCities({ search, limit: 8 }, ctrl.signal)
        .then(setFound)
        .catch(() => {});
    }, 250);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [search]);
  const nameOf = (v: string) => names[v] ?? v.split(':').slice(1).join(':') ?? v;
  return (
    <div className="flex flex-col gap-1">
      <ul className="flex flex-wrap gap-1" aria-label={LL.projects.targetFields.city()}>
        {param.values.map((v) => (
          <li
            key={v}
            className="flex items-center gap-1 rounded bg-indigo-50 py-0.5 pl-2 text-sm text-indigo-900"
          >
            {nameOf(v)}
            {!disabled && (
              <IconButton
                className="h-6 w-6"
                label={LL.panels.portraits.removeCity({ name: nameOf(v) })}
                onClick={() => onChange(param.values.filter((x) => x !== v))}
              >
                ×
              </IconButton>
            )}
          </li>
        ))}
      </ul>
      {!disabled && (
        <>
          <Label htmlFor={id}>{LL.panels.portraits.citySearch()}</Label>
          <input
            id={id}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="w-full rounded border border-slate-300 px-2 py-1 text-sm outline-none focus:ring-2 focus:ring-indigo-500"
          />
          <ul className="flex flex-wrap gap-1">
            {found
              .filter((c) => !param.values.includes(c.id))
              .map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    className="rounded border border-slate-300 px-2 py-0.5 text-sm text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                    onClick={() => {
                      setNames((n) => ({ ...n, [c.id]: c.name }));
                      onChange([...param.values, c.id]);
                    }}
                  >
                    + {c.name} ({c.region.name})
                  </button>
                </li>
              ))}
          </ul>
        </>
      )}
    </div>
  );
}

function ConditionEditor({
  field,
  param,
  disabled,
  onChange,
}: {
  field: TargetField;
  param: PortraitParam;
  disabled: boolean;
  onChange: (p: PortraitParam) => void;
}) {
  const { LL } = useI18nContext();
  if (field.kind === 'range')
    return (
      <div className="grid grid-cols-2 gap-2">
        <NumberField
          label={LL.panels.portraits.ageMin()}
          value={param.min ?? field.min}
          min={field.min}
          max={field.max}
          disabled={disabled}
          onCommit={(min) => onChange({ ...param, min })}
        />
        <NumberField
          label={LL.panels.portraits.ageMax()}
          value={param.max ?? field.max}
          min={field.min}
          max={field.max}
          disabled={disabled}
          onCommit={(max) => onChange({ ...param, max })}
        />
      </div>
    );
  if (field.kind === 'lookup')
    return (
      <CityPicker param={param} disabled={disabled} onChange={(values) => onChange({ ...param, values })} />
    );
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1">
      {field.values.map((v) => (
        <Checkbox
          key={v.id}
          label={v.name}
          checked={param.values.includes(v.id)}
          disabled={disabled}
          onChange={(on) =>
            onChange({
              ...param,
              values: on ? [...param.values, v.id] : param.values.filter((x) => x !== v.id),
            })
          }
        />
      ))}
    </div>
  );
}

function PortraitCard({
  portrait,
  n,
  fields,
  questionnaires,
  problems,
  disabled,
  send,
}: {
  portrait: Portrait;
  n: number;
  fields: TargetField[];
  questionnaires: string[];
  problems: string[];
  disabled: boolean;
  send: Send;
}) {
  const { LL } = useI18nContext();
  const T = LL.panels.portraits;
  const update = (patch: Partial<Portrait>) =>
    send({ type: 'portrait.update', portraitId: portrait.id, patch });
  const setParam = (field: string, param: PortraitParam | null) => {
    const rest = portrait.params.filter((p) => p.field !== field);
    update({
      params: param
        ? [
            ...portrait.params.map((p) => (p.field === field ? param : p)),
            ...(portrait.params.some((p) => p.field === field) ? [] : [param]),
          ]
        : rest,
    });
  };
  const title = `${LL.panels.path.portrait({ n })}${portrait.name ? `: ${portrait.name}` : ''}`;
  return (
    <section
      aria-label={title}
      className="flex flex-col gap-3 rounded border border-slate-200 p-3"
      data-portrait={n}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-800">{title}</h3>
        {!disabled && (
          <IconButton
            label={T.delete({ n })}
            onClick={() => send({ type: 'portrait.delete', portraitId: portrait.id })}
          >
            <TrashIcon />
          </IconButton>
        )}
      </div>
      <div className="grid gap-2 sm:grid-cols-3">
        <TextField
          label={T.name()}
          value={portrait.name}
          disabled={disabled}
          maxLength={200}
          onCommit={(name) => update({ name })}
        />
        <NumberField
          label={T.respondents({ min: LIMITS.respondentsMin, max: LIMITS.respondentsMax })}
          value={portrait.respondents}
          min={LIMITS.respondentsMin}
          max={LIMITS.respondentsMax}
          disabled={disabled}
          onCommit={(respondents) => update({ respondents })}
        />
        <Select
          label={T.questionnaire()}
          value={portrait.questionnaireId ?? ''}
          disabled={disabled}
          options={[
            { value: '', label: T.firstQuestionnaire() },
            ...questionnaires.map((id, i) => ({
              value: id,
              label: LL.panels.path.questionnaire({ n: i + 1 }),
            })),
          ]}
          onChange={(id) => update({ questionnaireId: id || null })}
        />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">{T.conditions()}</legend>
        {fields.map((f) => {
          const param = portrait.params.find((p) => p.field === f.id) ?? null;
          return (
            <div key={f.id} className="flex flex-col gap-1 rounded bg-slate-50 p-2">
              <Checkbox
                label={T.filterBy({ field: f.name })}
                checked={param !== null}
                disabled={disabled}
                onChange={(on) =>
                  setParam(
                    f.id,
                    on
                      ? f.kind === 'range'
                        ? { field: f.id, values: [], min: f.min, max: f.max }
                        : { field: f.id, values: [], min: null, max: null }
                      : null,
                  )
                }
              />
              {param && (
                <ConditionEditor
                  field={f}
                  param={param}
                  disabled={disabled}
                  onChange={(p) => setParam(f.id, p)}
                />
              )}
            </div>
          );
        })}
      </fieldset>
      {problems.length > 0 && (
        <ul role="alert" className="list-disc pl-5 text-sm text-red-800" data-testid="portrait-problems">
          {problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function PortraitsDialog({ actor, close }: { actor: EditorActorRef; close: () => void }) {
  const { LL } = useI18nContext();
  const content = useSelector(actor, (s) => s.context.doc.content);
  const type = useSelector(actor, (s) => s.context.project?.type ?? 1);
  const canEdit = useSelector(actor, (s) =>
    ['saved', 'editing', 'saving', 'offline', 'failed'].includes((s.value as { doc: string }).doc),
  );
  const { fields, error } = useTargetFields();
  const send: Send = (command) => actor.send({ type: 'content.edit', command });
  const T = LL.panels.portraits;

  // The rules' problems about portraits, each named by its portrait ("Portrait 2: …").
  const { perPortrait, general } = useMemo(() => {
    const problems = checkContent(content, { projectType: type });
    const perPortrait = new Map<number, string[]>();
    const general: string[] = [];
    for (const p of problems) {
      const m = /^portraits\.(\d+)/.exec(p.path);
      const code = p.code && p.code >= 40503 && p.code <= 40512 ? p.code : null;
      const words = code && `${code}` in T.codes ? T.codes[`${code}` as keyof typeof T.codes]() : null;
      const text = words ? `${code}: ${words}. ${problemText(LL, p)}` : problemText(LL, p);
      if (m) {
        const i = Number(m[1]);
        perPortrait.set(i, [...(perPortrait.get(i) ?? []), text]);
      } else if (
        p.path === 'portraits' ||
        p.rule === 'questionnaireWithoutPortrait' ||
        p.rule === 'portraitsNotAllowed'
      ) {
        const qn = /^questionnaires\.(\d+)$/.exec(p.path);
        general.push(
          qn
            ? LL.panels.path.message({ where: LL.panels.path.questionnaire({ n: Number(qn[1]) + 1 }), text })
            : text,
        );
      }
    }
    return { perPortrait, general };
  }, [LL, T, content, type]);

  if (type !== ProjectType.Target) return <p className="text-sm text-slate-700">{T.notTarget()}</p>;
  const questionnaires = content.questionnaires.map((q) => q.id);
  return (
    <div className="flex flex-col gap-4" data-dialog="portraits">
      {error && (
        <p role="alert" className="text-sm text-red-800">
          {T.loadFailed({ message: error })}
        </p>
      )}
      {general.length > 0 && (
        <ul role="alert" className="list-disc pl-5 text-sm text-red-800" data-testid="portraits-problems">
          {general.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
      {content.portraits.length === 0 && <p className="text-sm text-slate-600">{T.empty()}</p>}
      {fields &&
        content.portraits.map((p, i) => (
          <PortraitCard
            key={p.id}
            portrait={p}
            n={i + 1}
            fields={fields}
            questionnaires={questionnaires}
            problems={(perPortrait.get(i) ?? []).map((text) =>
              LL.panels.path.message({ where: LL.panels.path.portrait({ n: i + 1 }), text }),
            )}
            disabled={!canEdit}
            send={send}
          />
        ))}
      <div className="flex justify-between gap-2">
        {canEdit && content.portraits.length < LIMITS.portraits && (
          <Button variant="secondary" onClick={() => send({ type: 'portrait.add' })}>
            + {T.add()}
          </Button>
        )}
        <Button onClick={close}>{T.done()}</Button>
      </div>
    </div>
  );
}
