import type { FastifyInstance } from 'fastify';
import { canChangeProjectSettings, PidQuery } from '../../src/domain/projects';
import { can } from '../../src/domain/permissions';
import {
  ProjectSettingsBody,
  SETTINGS,
  SETTINGS_GROUPS,
  type SettingInfo,
  type SettingKey,
  type SettingsGroupInfo,
} from '../../src/domain/projectSettings';
import { audit } from '../http/audit';
import { requireUser } from '../http/context';
import { conflict, forbidden } from '../http/errors';
import { parse } from '../http/validate';
import { projectFor, readSettings, writeSetting } from '../repos/projects';
import { refreshSpeeders } from '../responses/speeders';

// Project settings (spec sections 3, 6, 7): the definitions and groups, one project's values, and
// changing them, which needs project-editor.change-project-settings (every role except Researcher)
// on a project the caller sees; see canChangeProjectSettings for the status rule.

export default async function projectSettingsRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/project/settings', async (req): Promise<SettingInfo[]> => {
    requireUser(req);
    return SETTINGS.map((s) => ({
      ...s,
      name: req.t.projects.settings[s.key].name(),
      description: req.t.projects.settings[s.key].description(),
    }));
  });

  app.get('/project/settings-groups', async (req): Promise<SettingsGroupInfo[]> => {
    requireUser(req);
    return SETTINGS_GROUPS.map((key) => ({ key, name: req.t.projects.settingsGroups[key]() }));
  });

  app.get('/project/project-settings', async (req) => {
    const me = requireUser(req);
    const { pid } = parse(PidQuery, req.query);
    const p = await projectFor(db, me, pid, 'read');
    return { pid: p.id, settings: await readSettings(db, p), canChange: canChangeProjectSettings(me, p) };
  });

  app.post('/project/project-settings', async (req) => {
    const me = requireUser(req);
    // The role first: a role that may never change settings hears 403, whatever it sent.
    if (!can(me.role.id, 'project-editor.change-project-settings')) throw forbidden();
    const body = parse(ProjectSettingsBody, req.body);
    const p = await projectFor(db, me, body.pid, 'read');
    if (!canChangeProjectSettings(me, p))
      throw conflict((t) => t.projects.notEditable(), { code: 'not-editable' });
    const before = await readSettings(db, p);
    const changed = (Object.keys(body.settings) as SettingKey[]).filter(
      (k) => body.settings[k] !== undefined && body.settings[k] !== before[k],
    );
    if (changed.length > 0) {
      await db.transaction().execute(async (trx) => {
        const now = Date.now();
        for (const key of changed) {
          if (key === 'set_priority') {
            await trx
              .updateTable('projects')
              .set({ priority: body.settings.set_priority!, updated_at: now })
              .where('id', '=', p.id)
              .execute();
          } else {
            await writeSetting(trx, p.id, key, body.settings[key]);
          }
        }
      });
      await audit(req, {
        chapter: 'projects',
        message: 'projects.log.settingsChanged',
        params: { id: p.id, keys: changed.join(', ') },
      });
      // The speeder rule follows its threshold at once (issue 31).
      if (changed.includes('set_speeder_percent')) await refreshSpeeders(db, p.id);
    }
    const fresh = await projectFor(db, me, p.id, 'read');
    return {
      pid: p.id,
      settings: await readSettings(db, fresh),
      canChange: canChangeProjectSettings(me, fresh),
    };
  });
}
