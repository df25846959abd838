import { badRequest, HttpError } from '../http/errors';

// The responses' refusals, in the caller's language (i18n group `quality`).

/** An id that is not a respondent of the project named: 400, as for any bad id in a request. */
export const notFoundRespondent = (id: number) =>
  badRequest((t) => t.quality.errors.notFound({ id }), { code: 'respondent-not-found', field: 'id' });

export const nothingMatches = () =>
  badRequest((t) => t.quality.errors.nothingMatches(), { code: 'nothing-matches', field: 'filter' });

export const stillAnswering = (id: number) =>
  new HttpError(409, (t) => t.quality.errors.stillAnswering({ id }), { code: 'still-answering' });

export const erasedRespondent = (id: number) =>
  new HttpError(409, (t) => t.quality.errors.erased({ id }), { code: 'respondent-erased' });

export const alreadyErased = (id: number) =>
  new HttpError(409, (t) => t.quality.errors.alreadyErased({ id }), { code: 'respondent-erased' });
