import { useI18nContext } from '../../i18n/i18n-react';
import { Button } from './Button';
import { enqueueModal } from './modal';

// The global confirmation dialog (spec section 2): Cancel and Agree, queued like every modal.
// `await confirm({...})` is true only when the user pressed Agree; the close icon, Escape, Cancel
// and a sign-out that clears the queue all answer false.

export interface ConfirmOptions {
  title: string;
  text?: string;
  agreeLabel?: string;
  danger?: boolean;
}

function ConfirmBody({ opts, close }: { opts: ConfirmOptions; close: (result: boolean) => void }) {
  const { LL } = useI18nContext();
  return (
    <div className="flex flex-col gap-5">
      {opts.text && <p className="whitespace-pre-line text-slate-700">{opts.text}</p>}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => close(false)}>
          {LL.common.cancel()}
        </Button>
        <Button
          variant={opts.danger ? 'danger' : 'primary'}
          onClick={() => close(true)}
          data-autofocus={opts.danger ? undefined : true}
        >
          {opts.agreeLabel ?? LL.common.agree()}
        </Button>
      </div>
    </div>
  );
}

export async function confirm(opts: ConfirmOptions): Promise<boolean> {
  const result = await enqueueModal<boolean>({
    title: opts.title,
    dismissResult: false,
    render: (close) => <ConfirmBody opts={opts} close={(r) => close(r)} />,
  });
  return result === true;
}
