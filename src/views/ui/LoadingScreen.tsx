import { useI18nContext } from '../../i18n/i18n-react';

/** Shown while a lazy page loads: an indeterminate progress bar at the top and a label. */
export function LoadingScreen() {
  const { LL } = useI18nContext();
  return (
    <div
      className="flex min-h-[50vh] flex-col items-center justify-center gap-3"
      role="status"
      aria-live="polite"
    >
      <div
        className="h-1 w-48 overflow-hidden rounded bg-indigo-100"
        role="progressbar"
        aria-label={LL.common.loading()}
      >
        <div className="h-full w-1/3 animate-[loading_1.2s_ease-in-out_infinite] bg-indigo-700" />
      </div>
      <span className="text-sm text-slate-600">{LL.common.loading()}</span>
    </div>
  );
}
