import type { ActorRefFrom } from 'xstate';
import type { editorMachine } from '../../../machines/editor';

// The editor's dialogs opened from the toolbar (portraits, project settings). Placeholders until the
// panels land. They take the editor actor because the modal host renders outside its provider.
export type EditorActorRef = ActorRefFrom<typeof editorMachine>;

export function openPortraitsDialog(_actor: EditorActorRef): void {}

export function openProjectSettingsDialog(_actor: EditorActorRef): void {}
