// What the editor has selected: one item of the content, by its stable id. The canvas, the outline,
// the side panel and the problem list all read and set the same selection.
export type SelectionKind = 'questionnaire' | 'block' | 'question';
export type EditorSelection = { kind: SelectionKind; id: string } | null;
