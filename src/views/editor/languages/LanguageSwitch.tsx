import { useId, useMemo, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { contentLanguages, languageName, SUPPORTED_LANGUAGES } from '../../../domain/content/languages';
import { textUnits, translatedCount } from '../../../domain/translations/units';
import type { editorMachine } from '../../../machines/editor/machine';
import { useI18nContext } from '../../../i18n/i18n-react';
import { i18nObject } from '../../../i18n/i18n-util';
import { readSettings } from '../../../i18n/setup';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { DropdownMenu, MenuItem } from '../../ui/Dropdown';
import { enqueueModal } from '../../ui/modal';
import { EditorActor } from '../editorActor';
import { useEditorView } from '../EditorUi';
import { useCanEdit } from '../panels/usePanel';
import { useLanguageName, useTextLanguage } from './useTextLanguage';

// The toolbar's language switch (issue 32): the questionnaire's languages belong to its content, so
// whoever may edit the content adds and removes them here, the researcher included (the project
// settings dialog is closed to researchers). Choosing a language makes the panels and the outline
// edit its texts; the translation view shows every text beside its source.

const ITEM =
  'flex w-full items-center gap-2 px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-50 focus:bg-indigo-50 focus:outline-none data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-500';

type EditorActorRef = ActorRefFrom<typeof editorMachine>;

function GlobeIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="h-4 w-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
    >
      <circle cx="10" cy="10" r="7.5" />
      <path d="M2.5 10h15M10 2.5c2 2.2 3 4.7 3 7.5s-1 5.3-3 7.5c-2-2.2-3-4.7-3-7.5s1-5.3 3-7.5z" />
    </svg>
  );
}

/** The menu's items, worked out only while it is open (the counts walk every text). */
function LanguageItems({ actor }: { actor: EditorActorRef }) {
  const { LL } = useI18nContext();
  const ui = useEditorView();
  const tl = useTextLanguage();
  const name = useLanguageName();
  const canEdit = useCanEdit();
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  const T = LL.translations.switch;
  const units = useMemo(() => textUnits(content), [content]);
  const remove = async () => {
    const code = tl.language;
    const count = translatedCount(content, units, code);
    const ok = await confirm({
      title: LL.translations.remove.title({ name: name(code) }),
      text: LL.translations.remove.text({ count }),
      agreeLabel: LL.translations.remove.agree(),
      danger: true,
    });
    if (!ok) return;
    actor.send({ type: 'content.edit', command: { type: 'language.remove', code } });
    ui.setLanguage(null);
  };
  return (
    <>
      {tl.languages.map((code, i) => (
        <MenuItem key={code} className={ITEM} onSelect={() => ui.setLanguage(i === 0 ? null : code)}>
          <span aria-hidden="true" className="w-4 text-indigo-700">
            {code === tl.language ? '✓' : ''}
          </span>
          <span data-language={code}>
            {i === 0
              ? T.source({ name: name(code) })
              : T.progress({
                  name: name(code),
                  done: translatedCount(content, units, code),
                  total: units.length,
                })}
          </span>
        </MenuItem>
      ))}
      <div role="separator" className="my-1 border-t border-slate-200" />
      <MenuItem className={ITEM} onSelect={() => ui.setTranslating(true)}>
        <span className="w-4" aria-hidden="true" />
        {T.view()}
      </MenuItem>
      <MenuItem className={ITEM} disabled={!canEdit} onSelect={() => openAddLanguage(actor, ui.setLanguage)}>
        <span className="w-4" aria-hidden="true" />
        {T.add()}
      </MenuItem>
      {!tl.isSource && (
        <MenuItem className={ITEM} disabled={!canEdit} onSelect={() => void remove()}>
          <span className="w-4" aria-hidden="true" />
          {T.remove({ name: name(tl.language) })}
        </MenuItem>
      )}
    </>
  );
}

export function LanguageSwitch() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const tl = useTextLanguage();
  const name = useLanguageName();
  const current = name(tl.language);
  return (
    <DropdownMenu
      label={LL.translations.switch.label({ name: current })}
      buttonClassName={`inline-flex h-9 items-center gap-1 rounded-md border px-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${tl.isSource ? 'border-slate-300 text-slate-800 hover:bg-slate-50' : 'border-indigo-400 bg-indigo-50 text-indigo-900'}`}
      buttonContent={
        <>
          <GlobeIcon />
          <span data-text-language={tl.language}>{current}</span>
          <span aria-hidden="true">▾</span>
        </>
      }
      panelClassName="z-40 w-72 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
    >
      <LanguageItems actor={actor} />
    </DropdownMenu>
  );
}

/** "Add a language…": the supported languages the questionnaire does not have yet, by name. */
function AddLanguageForm({ actor, done }: { actor: EditorActorRef; done: (code: string | null) => void }) {
  const { LL, locale } = useI18nContext();
  const id = useId();
  const listed = contentLanguages(actor.getSnapshot().context.doc.content);
  const options = SUPPORTED_LANGUAGES.filter((c) => !listed.includes(c)).map((code) => ({
    code,
    name: languageName(code, locale),
  }));
  const [code, setCode] = useState<string>(options[0]?.code ?? '');
  const T = LL.translations.add;
  if (options.length === 0) return <p className="text-slate-700">{T.none()}</p>;
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'content.edit', command: { type: 'language.add', code } });
        done(code);
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {T.label()}
        </label>
        <select
          id={id}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          data-autofocus
          className="rounded border border-slate-300 px-2 py-1"
        >
          {options.map((o) => (
            <option key={o.code} value={o.code}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      <p className="text-sm text-slate-600">{T.hint()}</p>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" type="button" onClick={() => done(null)}>
          {LL.common.cancel()}
        </Button>
        <Button type="submit">{T.submit()}</Button>
      </div>
    </form>
  );
}

export function openAddLanguage(actor: EditorActorRef, choose: (code: string | null) => void) {
  const title = i18nObject(readSettings().locale).translations.add.title();
  void enqueueModal<string | null>({
    title,
    render: (close) => <AddLanguageForm actor={actor} done={(code) => close(code)} />,
  }).then((code) => {
    // The language just added is the one edited next.
    if (code) choose(code);
  });
}
