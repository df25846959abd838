import { useId, useState } from 'react';
import type { ImportPlan } from '../../../domain/translations/plan';
import { useI18nContext } from '../../../i18n/i18n-react';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import { Button } from '../../ui/Button';
import { enqueueModal } from '../../ui/modal';
import { notify } from '../../ui/toast';
import { EditorActor } from '../editorActor';
import type { FileFailure } from './files';
import { useLanguageName, useUnitPlace } from './useTextLanguage';

// The translation view's files: one language's texts as XLIFF 2.0 or XLSX for a translator, and
// such a file loaded back. The code that writes and reads them (saxes, ExcelJS) is its own chunk,
// loaded on the first click (./files), never with the editor.

const loadFiles = () => import('./files');

export function TranslationFiles({ target, canEdit }: { target: string; canEdit: boolean }) {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const name = useLanguageName();
  const place = useUnitPlace();
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const T = LL.translations.files;

  const project = () => {
    const { pid, project: p, doc } = actor.getSnapshot().context;
    return { pid, name: p?.name ?? '', content: doc.content };
  };

  const download = async (format: 'xliff' | 'xlsx') => {
    setBusy(true);
    try {
      const files = await loadFiles();
      const { pid, name: projectName, content } = project();
      await files.download(format, content, target, {
        pid,
        projectName,
        where: (u) => place(u, content.questionnaires.length > 1),
      });
    } finally {
      setBusy(false);
    }
  };

  const upload = async (file: File) => {
    setBusy(true);
    try {
      const files = await loadFiles();
      const read = await files.readTranslation(file, project().content, target);
      if (!read.ok) {
        notify.error(T.failed({ file: file.name, reason: failureText(LL, read, name, target) }));
        return;
      }
      const apply = await enqueueModal<boolean>({
        title: T.plan.title({ file: file.name }),
        dismissResult: false,
        render: (close) => <PlanSummary plan={read.plan} inlineCodes={read.inlineCodes} close={close} />,
      });
      if (!apply || read.plan.texts.length === 0) return;
      actor.send({
        type: 'content.edit',
        command: { type: 'texts.set', language: target, texts: read.plan.texts, label: file.name },
      });
      notify.success(T.plan.done({ count: read.plan.texts.length }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      role="group"
      aria-label={T.title()}
      aria-busy={busy || undefined}
      className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2"
    >
      <Button variant="secondary" disabled={busy} onClick={() => void download('xliff')} data-export="xliff">
        {T.exportXliff()}
      </Button>
      <Button variant="secondary" disabled={busy} onClick={() => void download('xlsx')} data-export="xlsx">
        {T.exportXlsx()}
      </Button>
      {canEdit && (
        <>
          <label
            htmlFor={inputId}
            className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-indigo-500"
          >
            {T.import()}
            <input
              id={inputId}
              type="file"
              accept=".xlf,.xliff,.xml,.xlsx,application/xliff+xml,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              className="sr-only"
              disabled={busy}
              data-import-translation
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void upload(file);
              }}
            />
          </label>
        </>
      )}
      {busy && (
        <span role="status" className="text-sm text-slate-600">
          {T.reading()}
        </span>
      )}
    </div>
  );
}

function failureText(
  LL: TranslationFunctions,
  f: FileFailure,
  name: (code: string) => string,
  target: string,
): string {
  const E = LL.translations.files.errors;
  switch (f.reason) {
    case 'xml':
      return E.xml({ line: f.line ?? 1 });
    case 'invalid':
      return E.invalid({ line: f.line ?? 1 });
    case 'otherLanguage':
      return E.otherLanguage({ found: name(f.found ?? ''), name: name(target) });
    case 'otherSource':
      return E.otherSource({ found: name(f.found ?? ''), name: name(f.source ?? '') });
    case 'noLanguageColumn':
      return E.noLanguageColumn({ code: f.code ?? '' });
    case 'tooBig':
      return E.tooBig({ mb: f.mb ?? 0 });
    default:
      return E[f.reason]();
  }
}

/** What the file will change, before it does: applied only with "Apply". */
function PlanSummary({
  plan,
  inlineCodes,
  close,
}: {
  plan: ImportPlan;
  inlineCodes: number;
  close: (apply: boolean) => void;
}) {
  const { LL } = useI18nContext();
  const T = LL.translations.files.plan;
  const lines = [
    plan.texts.length > 0 ? T.changes({ count: plan.texts.length }) : T.nothing(),
    plan.unchanged > 0 && T.unchanged({ count: plan.unchanged }),
    plan.empty > 0 && T.empty({ count: plan.empty }),
    plan.unknown.length > 0 && T.unknown({ count: plan.unknown.length }),
    plan.sourceChanged.length > 0 && T.sourceChanged({ count: plan.sourceChanged.length }),
    inlineCodes > 0 && T.inlineCodes({ count: inlineCodes }),
  ].filter((l) => l !== false);
  return (
    <div className="flex flex-col gap-4" data-import-plan>
      <ul className="list-disc pl-5 text-sm text-slate-700">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      {plan.unknown.length > 0 && (
        <details className="text-sm text-slate-700">
          <summary>{T.unknown({ count: plan.unknown.length })}</summary>
          <ul className="mt-1 max-h-40 overflow-auto font-mono text-xs" data-unknown-units>
            {plan.unknown.slice(0, 200).map((k) => (
              <li key={k}>{k}</li>
            ))}
          </ul>
        </details>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => close(false)}>
          {LL.common.cancel()}
        </Button>
        <Button onClick={() => close(true)} disabled={plan.texts.length === 0} data-autofocus>
          {T.apply()}
        </Button>
      </div>
    </div>
  );
}
