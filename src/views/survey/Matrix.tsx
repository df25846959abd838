import type { Page, Reply } from '../../domain/flow';
import { useTexts } from './Texts';

// Matrix: a table whose rows (statements) are radio groups over the columns (answers). On a narrow
// screen the table scrolls sideways inside its box, never the page.

interface Props {
  page: Page;
  value: Reply;
  onChange: (r: Reply) => void;
  describedBy?: string;
}

export function Matrix({ page, value, onChange, describedBy }: Props) {
  const { s } = useTexts();
  const cells = value.cells ?? {};
  return (
    <div
      className="overflow-x-auto rounded-lg border border-slate-300 bg-white"
      aria-describedby={describedBy}
    >
      <table className="w-full border-collapse text-sm">
        <thead>
          <tr>
            <th scope="col" className="p-2 text-left font-medium">
              <span className="sr-only">{s.statement}</span>
            </th>
            {page.answers.map((a) => (
              <th key={a.id} scope="col" className="p-2 text-center font-medium break-words">
                {a.text}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {page.statements.map((st) => (
            <tr key={st.id} role="radiogroup" aria-label={st.text} className="border-t border-slate-200">
              <th scope="row" className="p-2 text-left font-normal break-words">
                {st.text}
              </th>
              {page.answers.map((a) => (
                <td key={a.id} className="p-0 text-center">
                  <label className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center">
                    <input
                      type="radio"
                      name={`m-${page.question.id}-${st.id}`}
                      className="size-5 accent-indigo-600"
                      aria-label={`${st.text}: ${a.text}`}
                      checked={cells[st.id] === a.id}
                      onChange={() => onChange({ cells: { ...cells, [st.id]: a.id } })}
                    />
                  </label>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
