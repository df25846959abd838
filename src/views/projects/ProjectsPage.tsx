import { lazy, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import { PROJECTS_PATH } from '../../api/projects';
import { PROJECT_TEMPLATES, canCreateProjects, type Project } from '../../domain/projects';
import { ALL_STATUSES } from '../../domain/projectStatus';
import { TARGET_PLATFORMS } from '../../domain/lookups';
import { useCurrentUser } from '../auth/AuthProvider';
import { useList, tableProps } from '../ui/useList';
import { DataTable, type Column } from '../ui/DataTable';
import { PageHeader } from '../ui/PageHeader';
import { SearchBox } from '../ui/SearchBox';
import { Button } from '../ui/Button';
import { enqueueModal } from '../ui/modal';
import { notify } from '../ui/toast';
import { ProjectActionsMenu } from './ProjectActionsMenu';
import { StatusControl } from './StatusControl';
import { statusName, templateName, typeName } from './labels';
import { useProjectActions } from './useProjectActions';
import { projectColumns } from './columns';
import { PROJECTS_SORT } from './listDefaults';

// The form (and its validation) loads when it opens, not with the list.
const CreateProjectForm = lazy(() =>
  import('./CreateProjectForm').then((m) => ({ default: m.CreateProjectForm })),
);

// /projects (spec section 2, "Questionnaires"): every project the caller may see, paged, sorted,
// searched and filtered on the server; creating from a template; the row actions; and for the
// Administrator a status selector fed by the status machine.

export default function ProjectsPage() {
  const { LL, locale } = useI18nContext();
  const me = useCurrentUser();
  const [, navigate] = useLocation();
  const [status, setStatus] = useState('');
  const [template, setTemplate] = useState('');
  const [tpid, setTpid] = useState('');
  const list = useList<Project>(PROJECTS_PATH, {
    query: { status, template, tpid },
    initialSort: PROJECTS_SORT,
  });
  const actions = useProjectActions(list.reload);
  const ids = { status: useId(), template: useId(), platform: useId() };
  if (!me) return null;

  const create = async () => {
    const created = await enqueueModal<Project | undefined>({
      title: LL.projects.create.title(),
      wide: true,
      render: (close) => <CreateProjectForm onDone={close} />,
    });
    if (!created) return;
    notify.success(LL.projects.create.done({ name: created.name }));
    // Straight on to writing the questionnaire.
    navigate(`/project?pid=${created.id}`);
  };

  const shared = projectColumns(LL, locale);
  const columns: Column<Project>[] = [
    shared.id,
    {
      key: 'name',
      header: LL.projects.columns.name(),
      render: (p) => <span className="font-medium text-slate-800">{p.name}</span>,
      sortable: true,
    },
    { key: 'priority', header: LL.projects.columns.priority(), render: (p) => p.priority, sortable: true },
    shared.organization,
    shared.template,
    shared.createdAt,
    {
      key: 'status',
      header: LL.projects.columns.status(),
      render: (p) => <StatusControl project={p} me={me} onChange={(to) => actions.changeStatus(p, to)} />,
      sortable: true,
    },
    { key: 'type', header: LL.projects.columns.type(), render: (p) => typeName(LL, p.type), sortable: true },
  ];
  const filtered = !!(status || template || tpid || list.search);
  const selectClass = 'max-w-full rounded border border-slate-300 bg-white px-3 py-2 text-sm';

  return (
    <section className="p-6">
      <PageHeader
        title={LL.projects.title()}
        actions={
          canCreateProjects(me.role.id) && <Button onClick={create}>{LL.projects.list.create()}</Button>
        }
      />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <SearchBox label={LL.projects.list.search()} value={list.search} onChange={list.setSearch} />
        <div className="flex max-w-full min-w-0 flex-col gap-1">
          <label htmlFor={ids.status} className="text-sm font-medium text-slate-700">
            {LL.projects.list.statusFilter()}
          </label>
          <select
            id={ids.status}
            value={status}
            onChange={(e) => setStatus(e.target.value)}
            className={selectClass}
          >
            <option value="">{LL.projects.list.all()}</option>
            {ALL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusName(LL, s)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex max-w-full min-w-0 flex-col gap-1">
          <label htmlFor={ids.template} className="text-sm font-medium text-slate-700">
            {LL.projects.list.templateFilter()}
          </label>
          <select
            id={ids.template}
            value={template}
            onChange={(e) => setTemplate(e.target.value)}
            className={selectClass}
          >
            <option value="">{LL.projects.list.all()}</option>
            {PROJECT_TEMPLATES.map((t) => (
              <option key={t} value={t}>
                {templateName(LL, t)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex max-w-full min-w-0 flex-col gap-1">
          <label htmlFor={ids.platform} className="text-sm font-medium text-slate-700">
            {LL.projects.list.platformFilter()}
          </label>
          <select
            id={ids.platform}
            value={tpid}
            onChange={(e) => setTpid(e.target.value)}
            className={selectClass}
          >
            <option value="">{LL.projects.list.all()}</option>
            {TARGET_PLATFORMS.map((p) => (
              <option key={p.id} value={p.id}>
                {LL.projects.platforms[p.code]()}
              </option>
            ))}
          </select>
        </div>
      </div>
      <DataTable
        caption={LL.projects.list.caption()}
        columns={columns}
        {...tableProps(list)}
        rowKey={(p) => p.id}
        emptyText={filtered ? LL.projects.list.emptyFiltered() : LL.projects.list.empty()}
        actions={(p) => <ProjectActionsMenu project={p} me={me} actions={actions} />}
      />
    </section>
  );
}
