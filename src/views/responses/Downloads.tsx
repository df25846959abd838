import { useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { downloadRespondents, type RespondentFilters, type RespondentsFormat } from '../../api/responses';
import { saveBlob } from '../../api/download';
import { Button } from '../ui/Button';
import { DropdownMenu, MenuItem } from '../ui/Dropdown';
import { notify } from '../ui/toast';
import { formatNumber } from '../ui/formatNumber';
import { errorMessage } from './labels';

// The filtered list as XLSX or CSV, as the report's downloads work: the file streams in, the page
// says how much has arrived, and the outcome comes as a toast.

const sizeText = (bytes: number, locale: string) =>
  bytes < 1024 * 1024
    ? `${formatNumber(bytes / 1024, locale, { maximumFractionDigits: 0 })} KB`
    : `${formatNumber(bytes / 1024 / 1024, locale, { maximumFractionDigits: 1 })} MB`;

const MENU_BUTTON =
  'inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500';

export function Downloads({
  pid,
  filters,
  disabled,
}: {
  pid: number;
  filters: RespondentFilters;
  disabled: boolean;
}) {
  const { LL, locale } = useI18nContext();
  const D = LL.responses.download;
  const [bytes, setBytes] = useState<number | null>(null);

  async function start(format: RespondentsFormat) {
    setBytes(0);
    try {
      const file = await downloadRespondents(pid, format, filters, { locale, onProgress: setBytes });
      saveBlob(file.blob, file.fileName);
      notify.success(D.done());
    } catch (err) {
      notify.error(`${D.failed()}: ${errorMessage(err)}`);
    } finally {
      setBytes(null);
    }
  }

  const label = (
    <>
      {D.menu()} <span aria-hidden="true">▾</span>
    </>
  );
  const progress = bytes !== null && (
    <div
      role="status"
      className="flex w-full flex-col gap-1 rounded-md bg-indigo-50 p-2 text-sm text-indigo-900"
    >
      <span>{D.progress({ size: sizeText(bytes, locale) })}</span>
      <progress className="h-2 w-full" aria-label={D.progress({ size: sizeText(bytes, locale) })} />
    </div>
  );
  if (disabled)
    return (
      <Button variant="secondary" disabled>
        {label}
      </Button>
    );
  return (
    <>
      <DropdownMenu
        label={D.menu()}
        buttonClassName={MENU_BUTTON}
        buttonContent={label}
        panelClassName="z-30 min-w-48 rounded-md border border-slate-200 bg-white py-1 text-left text-sm shadow-lg focus:outline-none"
      >
        {(['xlsx', 'csv'] as const).map((format) => (
          <MenuItem
            key={format}
            // One download at a time.
            disabled={bytes !== null}
            onSelect={() => void start(format)}
            className="block w-full px-3 py-2 text-left text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none"
          >
            {format === 'xlsx' ? D.xlsx() : D.csv()}
          </MenuItem>
        ))}
      </DropdownMenu>
      {progress}
    </>
  );
}
