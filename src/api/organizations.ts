import { api } from './client';
import type { Category, Organization, OrganizationTypeId } from '../domain/organizations';

// Organizations and categories (spec section 7).

export const getCategories = () => api.get<Category[]>('/categories');

export const findOrganizations = (query: {
  search?: string;
  type?: OrganizationTypeId;
  pageSize?: number;
  signal?: AbortSignal;
}) => {
  const { signal, ...q } = query;
  return api.list<Organization>('/organizations', { query: { pageSize: 20, ...q }, signal });
};

export const getOrganization = (id: number) => api.get<Organization>('/organization', { query: { id } });

export const createOrganization = (body: {
  name: string;
  type: OrganizationTypeId;
  categoryId?: number | null;
}) => api.post<Organization>('/organizations', body);
