import { lazy, Suspense, useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { createActor } from 'xstate';
import { FIRST_LOGIN_GUIDE, guideSlides, isGuideId, type GuideId } from '../../domain/guides';
import { LocaleGroups } from './LocaleGroups';
import { Role } from '../../domain/roles';
import { readSettings } from '../../i18n/setup';
import type { User } from '../../domain/user';
import { guideMachine } from '../../machines/guide';
import { useRestoreFocus } from '../ui/useRestoreFocus';

// The guide dialog and its memory. localStorage `app-helpers` (spec section 3) keeps the guides this
// browser has opened, as { "<guide id>": <unix ms first opened> }. One guide actor for the app: the
// header's help button, the editor's toolbar and the first-login check all open guides through it.
// The dialog's code loads with the first guide shown.

export const HELPERS_KEY = 'app-helpers';

export function openedGuides(): Partial<Record<GuideId, number>> {
  try {
    const raw = JSON.parse(localStorage.getItem(HELPERS_KEY) ?? '{}');
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
    return Object.fromEntries(Object.entries(raw).filter(([k, v]) => isGuideId(k) && typeof v === 'number'));
  } catch {
    return {};
  }
}

export function rememberGuide(id: GuideId): void {
  const all = openedGuides();
  if (all[id]) return;
  try {
    localStorage.setItem(HELPERS_KEY, JSON.stringify({ ...all, [id]: Date.now() }));
  } catch {
    /* storage full or blocked: the guide simply opens again next time */
  }
}

export const guideActor = createActor(
  guideMachine.provide({ actions: { remember: (_, { guide }) => rememberGuide(guide) } }),
).start();

/** Opens a guide with the slides of the app's language (a language change reloads the page). */
export function openGuide(id: GuideId): void {
  guideActor.send({ type: 'guide.open', guide: id, slides: guideSlides(id, readSettings().locale) });
}

/** Opens the demo-researcher guide once: on the first sign-in of a demo researcher in this browser. */
export function useFirstLoginGuide(user: User | null): void {
  const roleId = user?.role.id;
  useEffect(() => {
    if (roleId === Role.DemoResearcher && !openedGuides()[FIRST_LOGIN_GUIDE]) openGuide(FIRST_LOGIN_GUIDE);
  }, [roleId]);
}

const GuideDialogView = lazy(() => import('./GuideDialogView'));
export const GUIDE_GROUPS = ['guides', 'shell'] as const;

/** Mount once: the guide dialog, present while a guide is open or fading out. */
export function GuideDialog() {
  const active = useSelector(guideActor, (s) => !s.matches('closed'));
  useRestoreFocus(useSelector(guideActor, (s) => s.matches('open')));
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      {/* The captions are in the `guides` group, loaded when a guide first opens. */}
      <LocaleGroups need={GUIDE_GROUPS}>
        <GuideDialogView />
      </LocaleGroups>
    </Suspense>
  );
}
