import { Link, useLocation } from 'wouter';
import { useI18nContext } from '../../i18n/i18n-react';
import {
  canCloneProject,
  canDeleteProject,
  canEditProject,
  canReadProject,
  canWriteProject,
  isEditableStatus,
  REPORT_STATUSES,
  type Project,
} from '../../domain/projects';
import { canSubmit } from '../../domain/projectStatus';
import { demoRefuses } from '../../domain/demoRules';
import type { User } from '../../domain/user';
import { DropdownMenu, MenuItem } from '../ui/Dropdown';
import { accessOf } from './labels';
import type { useProjectActions } from './useProjectActions';

// The row actions of a project: "Open" as a link, the rest in a menu that lists only what the
// caller may do now (the same rules the server applies, from src/domain/projects.ts).

type Actions = ReturnType<typeof useProjectActions>;

export function ProjectActionsMenu({
  project,
  me,
  actions,
}: {
  project: Project;
  me: User;
  actions: Actions;
}) {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  const access = accessOf(project);
  const writer = canWriteProject(me, access);
  const items: { key: string; label: string; run: () => void; danger?: boolean; refused?: string }[] = [];
  // A demo account sees what it cannot do, and why, instead of a call the server refuses.
  const demo = (action: 'submit' | 'link') =>
    demoRefuses(me.role.id, action) ? LL.projects.demoRefused[action]() : undefined;
  items.push({ key: 'details', label: LL.projects.actions.details(), run: () => actions.details(project) });
  // The respondents one by one, where the report can be read (issue 31).
  if (canReadProject(me, access) && REPORT_STATUSES.includes(project.status))
    items.push({
      key: 'responses',
      label: LL.projects.actions.responses(),
      run: () => navigate(`/responses?pid=${project.id}`),
    });
  if (canEditProject(me, access))
    items.push({ key: 'rename', label: LL.projects.actions.rename(), run: () => actions.rename(project) });
  if (canReadProject(me, access))
    items.push({
      key: 'settings',
      label: LL.projects.actions.settings(),
      run: () => actions.settings(project),
    });
  if (writer && canSubmit(project.status))
    items.push({
      key: 'submit',
      label: LL.projects.actions.submit(),
      run: () => actions.submit(project),
      refused: demo('submit'),
    });
  if ((writer && canSubmit(project.status)) || !isEditableStatus(project.status))
    items.push({
      key: 'link',
      label: LL.projects.actions.link(),
      run: () => actions.link(project),
      refused: demo('link'),
    });
  if (canCloneProject(me, access))
    items.push({ key: 'clone', label: LL.projects.actions.clone(), run: () => actions.clone(project) });
  if (canDeleteProject(me, access))
    items.push({
      key: 'delete',
      label: LL.projects.actions.delete(),
      run: () => actions.remove(project),
      danger: true,
    });

  return (
    <div className="inline-flex items-center gap-1">
      <Link
        href={`/project?pid=${project.id}`}
        className="rounded px-2 py-1 text-sm text-indigo-700 hover:bg-indigo-50"
      >
        {LL.projects.actions.open()}
      </Link>
      <DropdownMenu
        label={LL.projects.list.moreFor({ name: project.name })}
        buttonClassName="rounded px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        buttonContent={
          <>
            {LL.projects.actions.more()} <span aria-hidden="true">▾</span>
          </>
        }
        panelClassName="z-30 min-w-48 rounded-md border border-slate-200 bg-white py-1 text-left text-sm shadow-lg focus:outline-none"
      >
        {items.map((item) => (
          <MenuItem
            key={item.key}
            disabled={!!item.refused}
            onSelect={item.run}
            className={`block w-full px-3 py-2 text-left hover:bg-slate-100 focus:bg-slate-100 focus:outline-none data-[disabled]:cursor-not-allowed ${item.danger ? 'text-red-800' : 'text-slate-700'}`}
          >
            {item.label}
            {item.refused && <span className="block max-w-64 text-xs text-slate-700">{item.refused}</span>}
          </MenuItem>
        ))}
      </DropdownMenu>
    </div>
  );
}
