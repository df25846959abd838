import * as v from 'valibot';
import { Role } from './roles';
import { PROJECT_TEMPLATES, ProjectType, type ProjectTemplate, type ProjectTypeId } from './projects';

// Project templates (spec sections 2 and 3). A template fixes the project's type and how it reaches
// respondents; its name and description are i18n texts under projects.templates.<id>.
//   default          an audience survey: players of the chosen platforms answer it (type 1)
//   target           a target project: respondents matched to portraits (type 2)
//   directLink       survey your own audience: the researcher spreads the survey link themselves
//   directLinkAdmin  the same, set up by an Administrator for any organization

export interface TemplateDefinition {
  id: ProjectTemplate;
  type: ProjectTypeId;
  /** Only an Administrator may create from it. */
  adminOnly: boolean;
  /** Respondents come through the survey link rather than through the platforms. */
  directLink: boolean;
  /** The project needs target portraits before it can be sent. */
  needsPortraits: boolean;
  /** The editor's guide for this template (spec section 2). */
  guide: 'project-editor/default' | 'project-editor/direct-link';
}

export const TEMPLATES: Record<ProjectTemplate, TemplateDefinition> = {
  default: {
    id: 'default',
    type: ProjectType.Default,
    adminOnly: false,
    directLink: false,
    needsPortraits: false,
    guide: 'project-editor/default',
  },
  target: {
    id: 'target',
    type: ProjectType.Target,
    adminOnly: false,
    directLink: false,
    needsPortraits: true,
    guide: 'project-editor/default',
  },
  directLink: {
    id: 'directLink',
    type: ProjectType.Default,
    adminOnly: false,
    directLink: true,
    needsPortraits: false,
    guide: 'project-editor/direct-link',
  },
  directLinkAdmin: {
    id: 'directLinkAdmin',
    type: ProjectType.Default,
    adminOnly: true,
    directLink: true,
    needsPortraits: false,
    guide: 'project-editor/direct-link',
  },
};

/** The templates a role may create projects from (none for roles that cannot create projects). */
export function templatesFor(roleId: number): TemplateDefinition[] {
  const writers: number[] = [Role.Administrator, Role.Researcher, Role.DemoResearcher];
  if (!writers.includes(roleId)) return [];
  return PROJECT_TEMPLATES.map((id) => TEMPLATES[id]).filter(
    (t) => !t.adminOnly || roleId === Role.Administrator,
  );
}

export function canUseTemplate(roleId: number, id: string): boolean {
  return templatesFor(roleId).some((t) => t.id === id);
}

/** What GET /project/templates and GET /project/template answer. */
export interface TemplateInfo extends TemplateDefinition {
  name: string;
  description: string;
}

export const TemplateQuery = v.object({ id: v.picklist(PROJECT_TEMPLATES, 'invalid') });
