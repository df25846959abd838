import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { queuedRefs } from '../../../db/pendingPictures';
import { useI18nContext } from '../../../i18n/i18n-react';
import { EditorActor } from '../editorActor';
import { pictureQueue, queueStatusText } from './pictureQueue';
import { usePainted } from '../../ui/afterPaint';

// The line above the price footer while pictures wait in the browser's queue: how many, the upload's
// progress, or why they could not go. It also does the uploading that is nobody's click: when the
// browser comes back online (and when a project opens with a queue left from an earlier visit),
// and finishes a save that was asked for while the pictures could not be uploaded.

export function PictureQueueStatus() {
  const { LL } = useI18nContext();
  const actor = EditorActor.useActorRef();
  const queue = pictureQueue(actor);
  const status = useSyncExternalStore(queue.subscribe, queue.getStatus);
  const content = EditorActor.useSelector((s) => s.context.doc.content);
  // Counted once the editor's first frame is on screen: a walk of every question's and answer's
  // picture (6 000 at 1 000 questions) is not worth a moment of the outline's first frame, and the
  // line shows a frame later at most.
  const painted = usePainted();
  const count = useMemo(() => (painted ? queuedRefs(content).length : 0), [painted, content]);

  useEffect(() => {
    if (!painted) return;
    const upload = async () => {
      if (queuedRefs(actor.getSnapshot().context.doc.content).length === 0) return;
      if (!(await queue.upload())) return;
      const doc = (actor.getSnapshot().value as { doc: string }).doc;
      // A save asked for offline, or one the server refused while the references were local.
      if (queue.saveWanted || doc === 'offline' || doc === 'failed') {
        queue.saveWanted = false;
        actor.send({ type: 'project.save' });
      }
    };
    window.addEventListener('online', upload);
    if (navigator.onLine !== false) void upload();
    return () => window.removeEventListener('online', upload);
  }, [actor, queue, painted]);

  const text =
    status.phase === 'idle'
      ? count > 0
        ? LL.panels.picture.queue.waiting({ count })
        : null
      : queueStatusText(LL, status);
  if (!text) return null;
  const bad = status.phase === 'failed' || status.phase === 'lost';
  return (
    <div
      role={bad ? 'alert' : 'status'}
      data-testid="picture-queue"
      data-phase={status.phase}
      className={`flex flex-wrap items-center gap-2 border-t px-4 py-1 text-sm ${bad ? 'border-red-200 bg-red-50 text-red-800' : 'border-amber-200 bg-amber-50 text-amber-950'}`}
    >
      <span>{text}</span>
      {status.phase === 'uploading' && (
        <progress max={100} value={status.percent} aria-label={text} className="h-2 w-32" />
      )}
    </div>
  );
}
