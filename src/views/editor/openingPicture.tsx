import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { ProjectContent } from '../../domain/content/model';
import { sourceLanguage } from '../../domain/content/languages';
import { copyStamp, storePicture, widthBand } from '../../db/openingPicture';
import { outlineRows } from './outlineRows';
import { Row, ROW_HEIGHT, type RowActions } from './Outline';
import { SourceNote } from './SourceNotice';

// Makes the editor's opening picture (db/openingPicture.ts shows it): the frame as the editor drew
// it when it opened (nothing selected, the outline at its top, the canvas still loading), with what
// changes as the project is edited made again from the content when the picture is kept: the
// outline's first rows (the outline's own row component, rendered apart), the header and the price
// as the page shows them, and the note "checking the server for changes", which is what a reopen
// from the local copy says. Kept when the page is hidden or left, as the draft is written.

interface Frame {
  pid: number;
  userId: number;
  locale: string;
  band: number;
  html: string;
}

let frame: Frame | null = null;

const NO_ACTIONS: RowActions = {
  select: () => {},
  toggle: () => {},
  rename: () => {},
  finishRename: () => {},
};

/**
 * Takes the frame as the editor drew it on opening (called once the opening has been painted), unless
 * something of the moment shows in it: the merge's conflict panel, an import, a dialog.
 */
export function takeOpeningFrame(pid: number, userId: number, locale: string): void {
  const root = document.getElementById('root');
  if (!root?.querySelector('[role="tree"]') || root.querySelector('[role="alertdialog"], [role="dialog"]'))
    return;
  frame = { pid, userId, locale, band: widthBand(innerWidth), html: root.innerHTML };
}

/** The picture of the project's opening with this content, kept for the next time it is opened in this browser. */
export function keepPicture(
  pid: number,
  userId: number,
  locale: string,
  content: ProjectContent,
  LL: TranslationFunctions,
): void {
  const band = widthBand(innerWidth);
  if (!frame || frame.pid !== pid || frame.userId !== userId || frame.locale !== locale || frame.band !== band)
    return;
  const template = document.createElement('template');
  template.innerHTML = frame.html;
  const page = template.content;
  const live = document.getElementById('root');
  for (const part of ['[data-picture="header"]', '[data-testid="price-footer"]']) {
    const now = live?.querySelector(part);
    if (now) page.querySelector(part)?.replaceWith(now.cloneNode(true));
  }
  const rows = outlineRows(LL, content, new Set(), undefined, sourceLanguage(content));
  const shown = rows.slice(0, Math.ceil(Math.max(innerHeight, screen.height) / ROW_HEIGHT) + 1);
  const drawn = document.createElement('div');
  const root = createRoot(drawn);
  flushSync(() =>
    root.render(
      <>
        <SourceNote source="local" text={LL.editor.source.local()} />
        <div>
          {shown.map((row, i) => (
            <Row
              key={row.id}
              row={row}
              top={i * ROW_HEIGHT}
              selected={false}
              collapsed={false}
              renaming={false}
              actions={NO_ACTIONS}
            />
          ))}
        </div>
      </>,
    ),
  );
  const [note, list] = [...drawn.children].map((e) => e.cloneNode(true) as HTMLElement);
  root.unmount();
  const tree = page.querySelector<HTMLElement>('[role="tree"]');
  if (!tree || !note || !list) return;
  tree.replaceChildren(...list.childNodes);
  tree.style.height = `${rows.length * ROW_HEIGHT}px`;
  tree.removeAttribute('aria-activedescendant');
  page.querySelector('[data-source]')?.replaceWith(note);
  // The live page's ids stay unique while the picture is shown.
  for (const e of page.querySelectorAll('[id]')) e.removeAttribute('id');
  storePicture(pid, {
    userId,
    locale,
    band,
    stamp: copyStamp(JSON.stringify(content)),
    bodyClass: document.body.className,
    html: template.innerHTML,
  });
}
