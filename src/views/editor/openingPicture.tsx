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
// from the local copy says. Kept when the page is hidden or left, as the draft is written (20–60 ms
// at 1 000 questions, mostly the content's text and its stamp: not while the page is looked at).

interface Frame {
  pid: number;
  userId: number;
  locale: string;
  band: number;
  /** How many of the outline's rows the window showed. */
  rows: number;
  html: string;
}

let frame: Frame | null = null;
/** The content last kept: hiding the page and then leaving it keep the same picture once. */
let kept: ProjectContent | null = null;

const NO_ACTIONS: RowActions = {
  select: () => {},
  toggle: () => {},
  rename: () => {},
  finishRename: () => {},
};

/**
 * Takes the frame as the editor drew it on opening (called once the opening has been painted), unless
 * something of the moment shows in it: the merge's conflict panel or a dialog.
 */
export function takeOpeningFrame(pid: number, userId: number, locale: string): void {
  const root = document.getElementById('root');
  if (!root?.querySelector('[role="tree"]') || root.querySelector('[role="alertdialog"], [role="dialog"]'))
    return;
  frame = {
    pid,
    userId,
    locale,
    band: widthBand(innerWidth),
    rows: Math.ceil(innerHeight / ROW_HEIGHT),
    html: root.innerHTML,
  };
  kept = null;
}

/** The picture of the project's opening with this content, kept for the next time it is opened in this browser. */
export function keepPicture(
  pid: number,
  userId: number,
  locale: string,
  content: ProjectContent,
  LL: TranslationFunctions,
): void {
  // Not the window's size now: a closing page may report none. The picture is shown in the band
  // the frame was drawn in.
  if (!frame || frame.pid !== pid || frame.userId !== userId || frame.locale !== locale || kept === content)
    return;
  kept = content;
  const start = performance.now();
  const template = document.createElement('template');
  template.innerHTML = frame.html;
  const page = template.content;
  const live = document.getElementById('root');
  for (const part of ['[data-picture="header"]', '[data-testid="price-footer"]']) {
    const now = live?.querySelector(part);
    if (now) page.querySelector(part)?.replaceWith(now.cloneNode(true));
  }
  const rows = outlineRows(LL, content, new Set(), undefined, sourceLanguage(content));
  const shown = rows.slice(0, frame.rows);
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
  unname(page);
  storePicture(pid, {
    userId,
    locale,
    band: frame.band,
    stamp: copyStamp(JSON.stringify(content)),
    bodyClass: document.body.className,
    html: template.innerHTML,
  });
  // What keeping it costs the page (the reopen bench reads it).
  performance.measure('editor:picture-kept', { start });
}

/**
 * The picture answers none of the live page's names: no ids (they stay unique), roles, ARIA or
 * tab stops (it is hidden from assistive technology anyway), and its data attributes renamed
 * data-picture-… so that nothing that looks for the editor's parts (the app, a test, a script)
 * finds the picture's instead.
 */
function unname(page: DocumentFragment): void {
  for (const e of page.querySelectorAll('*')) {
    for (const { name, value } of [...e.attributes]) {
      if (name === 'id' || name === 'role' || name === 'tabindex' || name.startsWith('aria-'))
        e.removeAttribute(name);
      else if (name.startsWith('data-') && !name.startsWith('data-picture')) {
        e.removeAttribute(name);
        e.setAttribute(`data-picture-${name.slice(5)}`, value);
      }
    }
  }
}
