import type { FastifyInstance } from 'fastify';
import sessionRoutes from './session';

// Every route module, one per resource, mounted under /api/v1/service. Add new ones here.
export const routeModules: ((app: FastifyInstance) => Promise<void>)[] = [sessionRoutes];
