import type { BaseTranslation } from '../i18n-types';
import common from './common';
import auth from './auth';
import validation from './validation';
import errors from './errors';
import shell from './shell';
import people from './people';
import games from './games';
import pricing from './pricing';
import projects from './projects';
import editor from './editor';
import reports from './reports';
import panels from './panels';
import versions from './versions';
import guides from './guides';
import importer from './importer';
import players from './players';
import callbacks from './callbacks';
import compare from './compare';
import translations from './translations';
import quality from './quality';
import responses from './responses';

// Russian is the base locale: every other locale must provide the same keys.
const ru = {
  common,
  auth,
  validation,
  errors,
  shell,
  people,
  games,
  pricing,
  projects,
  editor,
  reports,
  panels,
  versions,
  guides,
  importer,
  players,
  callbacks,
  compare,
  translations,
  quality,
  responses,
} satisfies BaseTranslation;

export default ru;
