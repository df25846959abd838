import { useState } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { downloadRespondents, type RespondentFilters, type RespondentsFormat } from '../../api/responses';
import { saveBlob } from '../../api/download';
import { Button } from '../ui/Button';
import { notify } from '../ui/toast';
import { formatNumber } from '../ui/formatNumber';
import { errorMessage } from './labels';

// The filtered list as XLSX or CSV, as the report's downloads work: the file streams in, the page
// says how much has arrived, and the outcome comes as a toast.

const sizeText = (bytes: number, locale: string) =>
  bytes < 1024 * 1024
    ? `${formatNumber(bytes / 1024, locale, { maximumFractionDigits: 0 })} KB`
    : `${formatNumber(bytes / 1024 / 1024, locale, { maximumFractionDigits: 1 })} MB`;

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

  return (
    <>
      <Button variant="secondary" disabled={disabled || bytes !== null} onClick={() => void start('csv')}>
        {D.csv()}
      </Button>
      <Button disabled={disabled || bytes !== null} onClick={() => void start('xlsx')}>
        {D.xlsx()}
      </Button>
      {bytes !== null && (
        <div
          role="status"
          className="flex w-full flex-col gap-1 rounded-md bg-indigo-50 p-2 text-sm text-indigo-900"
        >
          <span>{D.progress({ size: sizeText(bytes, locale) })}</span>
          <progress className="h-2 w-full" aria-label={D.progress({ size: sizeText(bytes, locale) })} />
        </div>
      )}
    </>
  );
}
