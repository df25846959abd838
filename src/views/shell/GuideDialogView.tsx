import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import { GUIDES } from '../../domain/guides';
import { useI18nContext } from '../../i18n/i18n-react';
import { Button } from '../ui/Button';
import { guideActor } from './guide';

// The guide dialog: one slide at a time with Next and 'Do by myself', End on the last slide.

export default function GuideDialogView() {
  const { LL } = useI18nContext();
  const open = useSelector(guideActor, (s) => s.matches('open'));
  const { guide, slides, index } = useSelector(guideActor, (s) => s.context);
  const last = index === slides.length - 1;
  const title = guide ? LL.shell.guide.titles[GUIDES[guide].title]() : '';
  const alt = LL.shell.guide.slide({ n: index + 1, total: slides.length });

  return (
    <Dialog
      open={open}
      // Escape or a click outside means the same as 'Do by myself'.
      onClose={() => guideActor.send({ type: 'guide.skip' })}
      className="fixed inset-0 z-50"
      data-guide={guide ?? undefined}
    >
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          transition
          className="w-full max-w-3xl overflow-hidden rounded-lg bg-white shadow-xl transition duration-300 ease-out data-[closed]:scale-95 data-[closed]:opacity-0"
        >
          <DialogTitle className="border-b border-slate-200 px-5 py-3 text-lg font-semibold text-slate-800">
            {title}
          </DialogTitle>
          {slides[index] && (
            <img
              key={slides[index]}
              src={slides[index]}
              alt={alt}
              width={1280}
              height={720}
              className="aspect-video w-full bg-slate-100 object-contain"
            />
          )}
          <div className="flex items-center justify-between gap-3 px-5 py-3">
            <p className="text-sm text-slate-600" aria-live="polite">
              {alt}
            </p>
            <div className="flex gap-2">
              {!last && (
                <Button variant="secondary" onClick={() => guideActor.send({ type: 'guide.skip' })}>
                  {LL.shell.guide.doByMyself()}
                </Button>
              )}
              {last ? (
                <Button onClick={() => guideActor.send({ type: 'guide.end' })}>{LL.shell.guide.end()}</Button>
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
