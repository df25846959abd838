import { useCallback } from 'react';
import { useI18nContext } from '../../i18n/i18n-react';
import { cloneProject, deleteProject, getSurveyLink, setProjectStatus } from '../../api/projects';
import {
  isEditableStatus,
  ProjectStatus,
  ProjectType,
  type Project,
  type ProjectStatusId,
} from '../../domain/projects';
import { confirm } from '../ui/confirm';
import { enqueueModal } from '../ui/modal';
import { notify } from '../ui/toast';
import { RenameForm } from './RenameForm';
import { SettingsForm } from './SettingsForm';
import { LinkPanel } from './LinkPanel';
import { ProjectDetails } from './ProjectDetails';
import { errorMessage, statusName } from './labels';

// What a user can do with one project, shared by /projects and /reports. Each action asks for
// confirmation where the spec says so, reports the outcome in a toast, and reloads the list (the
// server is the truth: a refused action shows its translated reason and the row as it really is).

export function useProjectActions(reload: () => void) {
  const { LL } = useI18nContext();

  const run = useCallback(
    async (work: () => Promise<string | void>) => {
      try {
        const message = await work();
        if (message) notify.success(message);
      } catch (err) {
        notify.error(errorMessage(err));
      }
      reload();
    },
    [reload],
  );

  const showLink = (link: string, p: Project) =>
    enqueueModal<void>({
      title: LL.projects.link.dialogTitle(),
      wide: true,
      render: (close) => (
        <LinkPanel
          link={link}
          // A target project's link asks who the visitor is first (as the editor's dialog says).
          note={p.type === ProjectType.Target ? LL.projects.link.targetNote() : undefined}
          onClose={() => close()}
        />
      ),
    }).then(() => undefined);

  return {
    submit: async (p: Project) => {
      const ok = await confirm({
        title: LL.projects.submit.title({ name: p.name }),
        text: LL.projects.submit.text(),
        agreeLabel: LL.projects.submit.agree(),
      });
      if (!ok) return;
      await run(async () => {
        await setProjectStatus(p.id, ProjectStatus.OnModeration);
        return LL.projects.submit.done();
      });
    },

    link: async (p: Project) => {
      if (isEditableStatus(p.status)) {
        const ok = await confirm({
          title: LL.projects.link.title({ name: p.name }),
          text: LL.projects.link.text(),
          agreeLabel: LL.projects.link.agree(),
        });
        if (!ok) return;
      }
      let link: string | null = null;
      await run(async () => {
        link = (await getSurveyLink(p.id)).link;
        return isEditableStatus(p.status) ? LL.projects.submit.done() : undefined;
      });
      if (link) await showLink(link, p);
    },

    changeStatus: async (p: Project, to: ProjectStatusId) => {
      const ok = await confirm({
        title: LL.projects.statusChange.title({ name: p.name }),
        text: LL.projects.statusChange.text({ from: statusName(LL, p.status), to: statusName(LL, to) }),
      });
      if (!ok) return reload();
      await run(async () => {
        await setProjectStatus(p.id, to);
        return LL.projects.details.statusDone({ status: statusName(LL, to) });
      });
    },

    clone: async (p: Project) => {
      const ok = await confirm({
        title: LL.projects.clone.title({ name: p.name }),
        text: LL.projects.clone.text(),
        agreeLabel: LL.projects.clone.agree(),
      });
      if (!ok) return;
      await run(async () => {
        const copy = await cloneProject({ id: p.id });
        return LL.projects.clone.done({ name: copy.name });
      });
    },

    remove: async (p: Project) => {
      const ok = await confirm({
        title: LL.projects.remove.title({ name: p.name }),
        text: LL.projects.remove.text(),
        agreeLabel: LL.projects.remove.agree(),
        danger: true,
      });
      if (!ok) return;
      await run(async () => {
        await deleteProject(p.id);
        return LL.projects.remove.done();
      });
    },

    rename: async (p: Project) => {
      const updated = await enqueueModal<Project | undefined>({
        title: LL.projects.rename.title(),
        render: (close) => <RenameForm project={p} onDone={close} />,
      });
      if (updated) {
        notify.success(LL.projects.rename.done());
        reload();
      }
    },

    details: async (p: Project) => {
      const changed = await enqueueModal<boolean>({
        title: LL.projects.details.title({ id: p.id }),
        wide: true,
        render: (close) => <ProjectDetails project={p} onDone={close} />,
      });
      if (changed) {
        notify.success(LL.projects.details.saved());
        reload();
      }
    },

    settings: async (p: Project) => {
      const saved = await enqueueModal<boolean>({
        title: LL.projects.settingsDialog.title({ name: p.name }),
        render: (close) => <SettingsForm project={p} onDone={close} />,
      });
      if (saved) {
        notify.success(LL.projects.settingsDialog.done());
        reload();
      }
    },
  };
}
