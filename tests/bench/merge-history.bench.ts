import { startServer } from '../server/helpers';
import { insertProject } from '../server/content-helpers';
import { writeContent } from '../../server/repos/content';
import { Role } from '../../src/domain/roles';
import type { ProjectContent } from '../../src/domain/content/model';
import { bigProject } from '../unit/content-fixtures';
import { median, type Bench } from './run';

// Issue #16: opening the history of 100 versions of a 1 000-question project ≤ 200 ms: the list
// call the history panel makes (GET /project/versions over HTTP, SQLite), with a reference beside
// it (GET /project of the same project, the call that opens the editor), measured in the same run.

export const title = 'Version history (1 000 questions, 100 versions, SQLite, over HTTP)';

const bench: Bench = async () => {
  const server = await startServer();
  try {
    const org = await server.createOrganization();
    const researcher = await server.as(Role.Researcher, { organizationId: org });
    const pid = await insertProject(server, org, { name: 'History bench' });
    let previous: ProjectContent | undefined;
    let content = bigProject();
    for (let v = 0; v < 100; v++) {
      // Each version rewords a few questions, as a save after some editing does.
      content = structuredClone(content);
      for (let k = 0; k < 3; k++)
        content.questionnaires[0].blocks[(v + k) % 50].questions[v % 20].text = `Version ${v + 1}, edit ${k}`;
      await server.app.db
        .transaction()
        .execute((trx) => writeContent(trx, pid, v, content, researcher.user.id, Date.now(), previous));
      previous = content;
    }
    const time = (path: string) =>
      median(
        async () => {
          const res = await server.call('GET', path, { session: researcher });
          if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        },
        20,
        3,
      );
    const list = await time(`/project/versions?pid=${pid}`);
    const open = await time(`/project?pid=${pid}`);
    return [
      { name: 'GET /project/versions: 100 versions', value: list, unit: 'ms', budget: 200 },
      { name: 'reference: GET /project (the same project)', value: open, unit: 'ms' },
    ];
  } finally {
    await server.close();
  }
};
export default bench;
