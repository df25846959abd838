import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import type { KeyboardEvent } from 'react';
import { GUIDE_SLIDE_HEIGHT, GUIDE_SLIDE_WIDTH, GUIDES } from '../../domain/guides';
import { useI18nContext } from '../../i18n/i18n-react';
import { Button } from '../ui/Button';
import { guideActor } from './guide';
import { slideCaption } from './slideCaption';

// The guide dialog: one slide at a time with Next and 'Do by myself', End on the last slide. The
// slide's caption is its alt text and is also shown under the picture, so the guide reads the same
// with a screen reader. Keyboard: Tab moves between the buttons, Enter or Space presses one, the
// right arrow goes to the next slide (End on the last), Escape means 'Do by myself'.

export default function GuideDialogView() {
  const { LL } = useI18nContext();
  const open = useSelector(guideActor, (s) => s.matches('open'));
  const { guide, slides, index } = useSelector(guideActor, (s) => s.context);
  const last = index === slides.length - 1;
  const title = guide ? LL.shell.guide.titles[GUIDES[guide].title]() : '';
  const counter = LL.shell.guide.slide({ n: index + 1, total: slides.length });
  const src = slides[index];
  const caption = guide && src ? slideCaption(LL, guide, src) : '';

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    guideActor.send({ type: last ? 'guide.end' : 'guide.next' });
  };

  return (
    <Dialog
      open={open}
      // Escape or a click outside means the same as 'Do by myself'.
      onClose={() => guideActor.send({ type: 'guide.skip' })}
      className="fixed inset-0 z-50"
      data-guide={guide ?? undefined}
    >
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-2 sm:p-4">
        <DialogPanel
          transition
          onKeyDown={onKeyDown}
          aria-describedby="guide-caption"
          className="flex max-h-full w-full max-w-4xl flex-col overflow-hidden rounded-lg bg-white shadow-xl transition duration-300 ease-out data-[closed]:scale-95 data-[closed]:opacity-0"
        >
          <DialogTitle className="border-b border-slate-200 px-5 py-3 text-lg font-semibold text-slate-800">
            {title}
          </DialogTitle>
          <figure className="min-h-0 shrink">
            {src && (
              <img
                key={src}
                src={src}
                alt={caption}
                width={GUIDE_SLIDE_WIDTH}
                height={GUIDE_SLIDE_HEIGHT}
                className="aspect-video max-h-[65vh] w-full bg-slate-100 object-contain"
              />
            )}
            <figcaption id="guide-caption" className="px-5 pt-3 text-sm text-slate-700" aria-live="polite">
              {caption}
            </figcaption>
          </figure>
          <div className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
            <p className="text-sm text-slate-600">{counter}</p>
            <div className="flex gap-2">
              {!last && (
                <Button variant="secondary" onClick={() => guideActor.send({ type: 'guide.skip' })}>
                  {LL.shell.guide.doByMyself()}
                </Button>
              )}
              {last ? (
                <Button data-autofocus onClick={() => guideActor.send({ type: 'guide.end' })}>
                  {LL.shell.guide.end()}
                </Button>
              ) : (
                <Button data-autofocus onClick={() => guideActor.send({ type: 'guide.next' })}>
                  {LL.shell.guide.next()}
                </Button>
              )}
            </div>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
