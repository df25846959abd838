import type { FastifyInstance } from 'fastify';
import sessionRoutes from './session';
import userRoutes from './users';
import invitationRoutes from './invitations';
import organizationRoutes from './organizations';
import historyRoutes from './history';
import gamesRoutes from './games';
import tariffsRoutes from './tariffs';
import projectRoutes from './projects';
import projectSettingsRoutes from './project-settings';
import lookupRoutes from './lookups';
import contentRoutes from './content';
import priceRoutes from './price';
import reviewRoutes from './review';
import statsRoutes from './stats';
import openapiRoutes from './openapi';
import surveyRoutes from './survey';

// Every route module, one per resource, mounted under /api/v1/service. Add new ones here.
export const routeModules: ((app: FastifyInstance) => Promise<void>)[] = [sessionRoutes];
routeModules.push(gamesRoutes, tariffsRoutes);
routeModules.push(userRoutes, invitationRoutes, organizationRoutes, historyRoutes);
routeModules.push(projectRoutes, projectSettingsRoutes, lookupRoutes);
routeModules.push(contentRoutes);
routeModules.push(priceRoutes, reviewRoutes);
routeModules.push(statsRoutes);
routeModules.push(openapiRoutes);
routeModules.push(surveyRoutes);
