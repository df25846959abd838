import type { Translation } from '../i18n-types';

const projects: Translation['projects'] = {
  notEditable: 'The project cannot be changed in its current status',
};
export default projects;
