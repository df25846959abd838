import { Link } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { PROJECTS_PATH } from '../../api/projects';
import { canDeleteProject, REPORT_STATUSES, type Project } from '../../domain/projects';
import { useCurrentUser } from '../auth/AuthProvider';
import { useList, tableProps } from '../ui/useList';
import { DataTable, type Column } from '../ui/DataTable';
import { PageHeader } from '../ui/PageHeader';
import { SearchBox } from '../ui/SearchBox';
import { Button } from '../ui/Button';
import { accessOf, StatusBadge } from '../projects/labels';
import { useProjectActions } from '../projects/useProjectActions';
import { projectColumns } from '../projects/columns';

// /reports (spec section 2: Administrator, Researcher, DemoResearcher): the projects the caller sees
// whose survey has run, so their report can be opened at /report?pid=…; deleting one (after the
// list pages' delete confirmation) deletes the project, by the same rules as /projects.

export default function ReportsPage() {
  const { LL, locale } = useI18nContext();
  const me = useCurrentUser();
  const list = useList<Project>(PROJECTS_PATH, {
    query: { status: [...REPORT_STATUSES] },
    initialSort: { key: 'createdAt', order: 'desc' },
  });
  const actions = useProjectActions(list.reload);
  if (!me) return null;

  const shared = projectColumns(LL, locale);
  const columns: Column<Project>[] = [
    shared.id,
    {
      key: 'name',
      header: LL.projects.columns.name(),
      render: (p) => (
        <Link href={`/report?pid=${p.id}`} className="font-medium text-indigo-700 hover:underline">
          {p.name}
        </Link>
      ),
      sortable: true,
    },
    shared.organization,
    shared.template,
    shared.createdAt,
    {
      key: 'status',
      header: LL.projects.columns.status(),
      render: (p) => <StatusBadge status={p.status} />,
      sortable: true,
    },
  ];

  return (
    <section className="p-6">
      <PageHeader title={LL.reports.title()} />
      <div className="mb-4">
        <SearchBox label={LL.reports.search()} value={list.search} onChange={list.setSearch} />
      </div>
      <DataTable
        caption={LL.reports.caption()}
        columns={columns}
        {...tableProps(list)}
        rowKey={(p) => p.id}
        emptyText={LL.reports.empty()}
        actions={(p) => (
          <div className="inline-flex items-center gap-1">
            <Link
              href={`/report?pid=${p.id}`}
              aria-label={LL.reports.openFor({ name: p.name })}
              className="rounded px-2 py-1 text-sm text-indigo-700 hover:bg-indigo-50"
            >
              {LL.reports.open()}
            </Link>
            {canDeleteProject(me, accessOf(p)) && (
              <Button
                variant="ghost"
                className="text-red-800 hover:bg-red-50"
                aria-label={LL.reports.deleteFor({ name: p.name })}
                onClick={() => actions.remove(p)}
              >
                {LL.common.delete()}
              </Button>
            )}
          </div>
        )}
      />
    </section>
  );
}
