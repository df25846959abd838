import { createElement } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { editorMachine } from '../../../machines/editor/machine';
import { enqueueModal } from '../../ui/modal';
import { i18nObject } from '../../../i18n/i18n-util';
import { readSettings } from '../../../i18n/setup';
import { PortraitsDialog } from './PortraitsDialog';
import { ProjectSettingsDialog } from './ProjectSettingsDialog';

// The editor's dialogs opened from the toolbar (portraits, project settings). They take the editor
// actor because the modal host renders outside its provider.
export type EditorActorRef = ActorRefFrom<typeof editorMachine>;

/** The dialog's title in the language on screen (the modal host takes a plain string). */
const title = (which: 'portraits' | 'settings') => {
  const LL = i18nObject(readSettings().locale).panels;
  return which === 'portraits' ? LL.portraits.title() : LL.settings.title();
};

export function openPortraitsDialog(actor: EditorActorRef): void {
  void enqueueModal({
    title: title('portraits'),
    wide: true,
    render: (close) => createElement(PortraitsDialog, { actor, close: () => close() }),
  });
}

export function openProjectSettingsDialog(actor: EditorActorRef): void {
  void enqueueModal({
    title: title('settings'),
    wide: true,
    render: (close) => createElement(ProjectSettingsDialog, { actor, close: () => close() }),
  });
}
