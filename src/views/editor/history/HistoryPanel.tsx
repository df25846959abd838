// The project's saved versions with restore. Placeholder until version history lands; the side
// panel shows it in its own tab. It reads the editor actor through EditorActor.
export function HistoryPanel() {
  return null;
}
