import type { ReactNode } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { Source } from '../../machines/editor/open';
import { Button } from '../ui/Button';
import { EditorActor } from './editorActor';

/** The note itself: also drawn into the editor's opening picture (openingPicture.tsx). */
export function SourceNote({
  source,
  text,
  children,
}: {
  source: Source;
  text: string;
  children?: ReactNode;
}) {
  const warn = source !== 'server' && source !== 'local';
  return (
    <div
      data-source={source}
      className={`flex items-center gap-3 px-4 py-2 text-sm ${warn ? 'bg-amber-50 text-amber-900' : 'bg-slate-50 text-slate-600'}`}
      role={warn ? 'alert' : undefined}
    >
      <span>{text}</span>
      {children}
    </div>
  );
}

/** Says which copy was opened: the server's, the unsaved draft, the offline copy, or the server's over a draft. */
export function SourceNotice() {
  const { LL } = useI18nContext();
  const source = EditorActor.useSelector((s) => s.context.source);
  const setAside = EditorActor.useSelector((s) => s.context.setAside !== null);
  const actor = EditorActor.useActorRef();
  if (!source) return null;
  const text = {
    server: LL.editor.source.server(),
    draft: LL.editor.source.draft(),
    offline: LL.editor.source.offline(),
    serverNewer: LL.editor.source.serverNewer(),
    local: LL.editor.source.local(),
  }[source];
  return (
    <SourceNote source={source} text={text}>
      {setAside && (
        <Button variant="secondary" onClick={() => actor.send({ type: 'draft.restore' })}>
          {LL.editor.source.restoreDraft()}
        </Button>
      )}
    </SourceNote>
  );
}
