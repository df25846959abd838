import { api } from './client';
import type { Project, ProjectStatusId, ProjectTemplate } from '../domain/projects';
import type { TemplateInfo } from '../domain/templates';
import type { ProjectSettingsValues, SettingInfo, SettingsGroupInfo } from '../domain/projectSettings';

// Projects (spec section 7, Projects): typed calls for the list pages, the create form, the row
// actions and the settings dialog. The list itself is read by useList(PROJECTS_PATH).

export { PROJECTS_PATH } from './projectsPath';

export const getTemplates = () => api.get<TemplateInfo[]>('/project/templates');
export const getTemplate = (id: string) => api.get<TemplateInfo>('/project/template', { query: { id } });

export interface NewProject {
  name: string;
  template: ProjectTemplate;
  priority?: number;
  organizationId?: number;
  targetPlatformIds?: number[];
}
export const createProject = (body: NewProject) => api.post<Project>('/projects', body);
export const updateProject = (body: {
  id: number;
  name?: string;
  priority?: number;
  targetPlatformIds?: number[];
}) => api.put<Project>('/project', body);
export const deleteProject = (id: number) =>
  api.del<{ id: number }>('/project', undefined, { query: { id } });
export const cloneProject = (body: { id: number; name?: string }) =>
  api.post<{ id: number; name: string; status: ProjectStatusId; organizationId: number }>(
    '/project/clone',
    body,
  );
export const setProjectStatus = (pid: number, status: ProjectStatusId) =>
  api.post<Project>('/project/status', { pid, status });
export const getSurveyLink = (pid: number) =>
  api.get<{ pid: number; link: string; status: ProjectStatusId }>('/project/link', { query: { pid } });

export const getSettingDefinitions = () => api.get<SettingInfo[]>('/project/settings');
export const getSettingsGroups = () => api.get<SettingsGroupInfo[]>('/project/settings-groups');
export interface ProjectSettingsAnswer {
  pid: number;
  settings: ProjectSettingsValues;
  canChange: boolean;
}
export const getProjectSettings = (pid: number) =>
  api.get<ProjectSettingsAnswer>('/project/project-settings', { query: { pid } });
export const saveProjectSettings = (pid: number, settings: Partial<ProjectSettingsValues>) =>
  api.post<ProjectSettingsAnswer>('/project/project-settings', { pid, settings });
