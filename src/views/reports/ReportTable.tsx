import type { ReactNode } from 'react';

// The report's tables beside its charts (a question's counts, the funnel, the timeline): a caption
// for screen readers, column and row headers, numbers aligned right.

export function ReportTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
}) {
  return (
    // Long tables (a 0–40 range) scroll inside the card; the region can take focus to scroll by keys.
    <div className="max-h-80 min-w-0 overflow-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-xs sm:text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-600">
            {head.map((h, i) => (
              <th
                key={i}
                scope="col"
                className={`whitespace-nowrap py-1 pr-3 font-medium ${i > 0 ? 'text-right' : ''}`}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-b border-slate-100 last:border-0">
              {r.map((c, j) =>
                j === 0 ? (
                  <th key={j} scope="row" className="py-1 pr-3 text-left font-normal text-slate-800">
                    {c}
                  </th>
                ) : (
                  <td key={j} className="py-1 pr-3 text-right tabular-nums text-slate-800">
                    {c}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
