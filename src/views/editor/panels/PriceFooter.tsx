// The live price estimate under the canvas. Placeholder until the panels land; it reads the
// content and project from EditorActor.
export function PriceFooter() {
  return null;
}
