import { useI18nContext } from '../../../i18n/i18n-react';
import { useCallback, useSyncExternalStore } from 'react';
import { api } from '../../../api/client';
import { REVIEW_STATUSES } from '../../../domain/reviewSettings';
import { EditorActor } from '../editorActor';
import { usePermissions } from './usePanel';

// Reviewing a project on moderation (DESIGN.md 5): the editor is read-only, yet a Moderator or an
// Administrator may set customParams and callbackUrl. Those go straight to
// POST /project/review-settings, one field per call; what was saved is kept here (by item id) over
// the read-only content on screen, with the version the next call is based on.

type Fields = { customParams?: string; callbackUrl?: string };
interface ReviewState {
  version: number | null;
  items: Record<string, Fields>;
  status: { ok: boolean; message: string } | null;
}

const stores = new Map<number, ReviewState>();
const listeners = new Set<() => void>();
const EMPTY: ReviewState = { version: null, items: {}, status: null };

function update(pid: number, next: ReviewState) {
  stores.set(pid, next);
  listeners.forEach((l) => l());
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export interface Review {
  /** The reviewer's fields can be saved now. */
  active: boolean;
  value: (id: string, field: keyof Fields, stored: string) => string;
  save: (kind: 'block' | 'question', id: string, fields: Fields) => Promise<void>;
  status: ReviewState['status'];
}

export function useReview(): Review {
  const pid = EditorActor.useSelector((s) => s.context.pid);
  const baseVersion = EditorActor.useSelector((s) => s.context.baseVersion);
  const readOnly = EditorActor.useSelector((s) => (s.value as { doc: string }).doc === 'readOnly');
  const status = EditorActor.useSelector((s) => s.context.project?.status ?? 0);
  const perms = usePermissions();
  const state = useSyncExternalStore(subscribe, () => stores.get(pid) ?? EMPTY);
  const active = readOnly && REVIEW_STATUSES.includes(status) && (perms.blockSettings || perms.customParams);

  const value = useCallback(
    (id: string, field: keyof Fields, stored: string) => state.items[id]?.[field] ?? stored,
    [state],
  );
  const save = useCallback(
    async (kind: 'block' | 'question', id: string, fields: Fields) => {
      const cur = stores.get(pid) ?? EMPTY;
      const version = cur.version ?? baseVersion;
      const body =
        kind === 'block'
          ? { pid, version, blocks: [{ id, ...fields }] }
          : { pid, version, questions: [{ id, customParams: fields.customParams ?? '' }] };
      try {
        const res = await api.post<{ version: number }>('/project/review-settings', body);
        const now = stores.get(pid) ?? EMPTY;
        update(pid, {
          version: res.version,
          items: { ...now.items, [id]: { ...now.items[id], ...fields } },
          status: { ok: true, message: '' },
        });
      } catch (err) {
        update(pid, {
          ...(stores.get(pid) ?? EMPTY),
          status: { ok: false, message: (err as Error).message },
        });
      }
    },
    [pid, baseVersion],
  );
  return { active, value, save, status: state.status };
}

/** Says what a reviewer may change here and how the last save went. */
export function ReviewNote({ review }: { review: Review }) {
  const { LL } = useI18nContext();
  return (
    <div className="flex flex-col gap-1 text-xs">
      <p className="text-slate-600">{LL.panels.review.note()}</p>
      {review.status && (
        <p
          role={review.status.ok ? 'status' : 'alert'}
          className={review.status.ok ? 'text-green-800' : 'text-red-800'}
        >
          {review.status.ok ? LL.panels.review.saved() : review.status.message}
        </p>
      )}
    </div>
  );
}
