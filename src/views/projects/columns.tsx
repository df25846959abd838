import type { TranslationFunctions } from '../../i18n/i18n-types';
import type { Project } from '../../domain/projects';
import type { Column } from '../ui/DataTable';
import { formatDate, templateName } from './labels';

/** The columns the projects list and the reports list show alike. */
export function projectColumns(LL: TranslationFunctions, locale: string) {
  const id: Column<Project> = {
    key: 'id',
    header: LL.projects.columns.id(),
    render: (p) => p.id,
    sortable: true,
  };
  const organization: Column<Project> = {
    key: 'organization',
    header: LL.projects.columns.organization(),
    render: (p) => p.organization.name,
    sortable: true,
  };
  const template: Column<Project> = {
    key: 'template',
    header: LL.projects.columns.template(),
    render: (p) => templateName(LL, p.template),
    sortable: true,
  };
  const createdAt: Column<Project> = {
    key: 'createdAt',
    header: LL.projects.columns.createdAt(),
    render: (p) => formatDate(locale, p.createdAt),
    sortable: true,
  };
  return { id, organization, template, createdAt };
}
