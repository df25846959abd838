import type { FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import type { ProjectContent } from '../../src/domain/content/model';
import type { User } from '../../src/domain/user';
import { audit } from '../http/audit';
import { newToken, sha256 } from '../repos/respondents';
import { forgetRespondent } from '../survey/respondent-cache';
import { alreadyErased } from './errors';
import { moveExclusion, targets } from './exclusion';
import { EXCLUDED } from './predicate';

// DELETE /project/respondent: a person asked to be erased (docs/decisions/responses.md). In one
// transaction the respondent leaves every figure as an exclusion does (counters, a freed portrait
// place while the project runs), then their answers and their profile go: only an anonymous row is
// left (its status and times, so that the project's totals can still be explained), marked erased and
// excluded. Their resume token stops working, so a tab still open cannot answer again.

export async function eraseRespondent(
  req: FastifyRequest,
  db: Db,
  input: { projectId: number; id: number; user: User; content: ProjectContent; now?: number },
): Promise<void> {
  const now = input.now ?? Date.now();
  const [row] = await targets(db, input.projectId, { ids: [input.id] }, input.content);
  if (row.erased_at !== null) throw alreadyErased(row.id);
  const old = await db
    .selectFrom('respondents')
    .select('token_hash')
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    if (row.excluded !== EXCLUDED)
      await moveExclusion(trx, {
        projectId: input.projectId,
        wanted: [row],
        excluded: true,
        record: {
          reason: req.t.quality.erasedReason(),
          at: now,
          author: { id: input.user.id, email: input.user.email, fullname: input.user.fullname },
        },
        content: input.content,
      });
    await trx.deleteFrom('respondent_answers').where('respondent_id', '=', row.id).execute();
    await trx
      .updateTable('respondents')
      .set({
        excluded: EXCLUDED,
        erased_at: now,
        updated_at: now,
        // Still answering: ended, so that nothing more is written for them.
        status: row.status === RESPONDENT_STATUS.started ? RESPONDENT_STATUS.screenedOut : row.status,
        token_hash: sha256(newToken()),
        state: JSON.stringify({ v: 1, erased: true }),
        player_id: null,
        gender: null,
        age: null,
        city: null,
        region: null,
        education: null,
        platform: null,
        locale: null,
        browser_hash: null,
        flags: 0,
        flag_params: null,
      })
      .where('id', '=', row.id)
      .execute();
    await trx.updateTable('projects').set({ updated_at: now }).where('id', '=', input.projectId).execute();
    await audit(
      req,
      {
        chapter: 'reports',
        message: 'quality.log.erased',
        params: { id: input.projectId, respondent: row.id },
      },
      trx,
    );
  });
  forgetRespondent(db, old.token_hash);
}
