import { lazy } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import type { Tariff } from '../../domain/pricing';
import { deleteTariff, TARIFFS_PATH } from '../../api/tariffs';
import { useList, tableProps } from '../ui/useList';
import { DataTable, type Column } from '../ui/DataTable';
import { PageHeader } from '../ui/PageHeader';
import { SearchBox } from '../ui/SearchBox';
import { Button, IconButton } from '../ui/Button';
import { confirm } from '../ui/confirm';
import { enqueueModal } from '../ui/modal';
import { notify } from '../ui/toast';
import { EditIcon, PlusIcon, TrashIcon } from '../ui/icons';
import { errorMessage, formatDate } from '../games/format';

// The form (and its validation) loads when it opens, not with the list.
const TariffForm = lazy(() => import('./TariffForm').then((m) => ({ default: m.TariffForm })));

// /tariffs (Administrator): tariffs with their discount and registration date, paged, sorted and
// searched on the server; create, change, delete after confirmation.
export default function TariffsPage() {
  const { LL, locale } = useI18nContext();
  const list = useList<Tariff>(TARIFFS_PATH, { initialSort: { key: 'createdAt', order: 'desc' } });

  const open = async (tariff?: Tariff) => {
    const saved = await enqueueModal<Tariff>({
      title: tariff
        ? LL.pricing.tariffs.form.editTitle({ name: tariff.name })
        : LL.pricing.tariffs.form.createTitle(),
      render: (close) => <TariffForm tariff={tariff} onDone={close} />,
    });
    if (saved) list.reload();
  };
  const remove = async (t: Tariff) => {
    const ok = await confirm({
      title: LL.pricing.tariffs.delete.title(),
      text: LL.pricing.tariffs.delete.text({ name: t.name, discount: t.discount }),
      agreeLabel: LL.common.delete(),
      danger: true,
    });
    if (!ok) return;
    try {
      await deleteTariff(t.id);
      notify.success(LL.pricing.tariffs.delete.done({ name: t.name }));
    } catch (err) {
      notify.error(errorMessage(err));
    }
    list.reload();
  };

  const columns: Column<Tariff>[] = [
    {
      key: 'name',
      header: LL.pricing.tariffs.columns.name(),
      sortable: true,
      render: (t) => <span className="font-medium text-slate-800">{t.name}</span>,
    },
    {
      key: 'discount',
      header: LL.pricing.tariffs.columns.discount(),
      sortable: true,
      render: (t) => LL.pricing.tariffs.discountValue({ discount: t.discount }),
    },
    {
      key: 'createdAt',
      header: LL.pricing.tariffs.columns.createdAt(),
      sortable: true,
      render: (t) => formatDate(locale, t.createdAt),
    },
  ];

  return (
    <section className="p-6">
      <PageHeader
        title={LL.pricing.tariffs.title()}
        actions={
          <Button onClick={() => void open()}>
            <PlusIcon />
            {LL.pricing.tariffs.add()}
          </Button>
        }
      />
      <div className="mb-4">
        <SearchBox label={LL.pricing.tariffs.search()} value={list.search} onChange={list.setSearch} />
      </div>
      <DataTable
        caption={LL.pricing.tariffs.caption()}
        columns={columns}
        {...tableProps(list)}
        rowKey={(t) => t.id}
        emptyText={LL.pricing.tariffs.empty()}
        actions={(t) => (
          <div className="inline-flex gap-1">
            <IconButton
              label={LL.pricing.tariffs.actions.edit({ name: t.name })}
              onClick={() => void open(t)}
            >
              <EditIcon />
            </IconButton>
            <IconButton
              label={LL.pricing.tariffs.actions.delete({ name: t.name })}
              onClick={() => void remove(t)}
              className="hover:text-red-800"
            >
              <TrashIcon />
            </IconButton>
          </div>
        )}
      />
    </section>
  );
}
