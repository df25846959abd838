import { createElement } from 'react';
import { ApiError } from '../../../api/client';
import { getSurveyLink, setProjectStatus } from '../../../api/projects';
import { deleteDraft } from '../../../db/drafts';
import { appDB } from '../../../db/AppDB';
import { guideForPage } from '../../../domain/guides';
import { countQuestions } from '../../../domain/content/model';
import { checkContent } from '../../../domain/content/rules';
import { ProjectStatus, ProjectType } from '../../../domain/projects';
import { confirm } from '../../ui/confirm';
import { openModal } from '../../ui/modal';
import { notify } from '../../ui/toast';
import { openGuide } from '../../shell/guide';
import { openPortraitsDialog, openProjectSettingsDialog } from '../dialogs';
import { locate } from '../items';
import { LinkDialogBody } from './LinkDialog';
import { targetBlock, targetQuestionnaire } from './availability';
import type { ToolEnv } from './registry';

// What the editor's commands do. Each is called only when availability.ts says it may run.

export function openReport({ facts }: ToolEnv) {
  window.open(`/report?pid=${facts.project!.pid}`, '_blank', 'noopener');
}

export async function refresh({ LL, ui, facts, actor }: ToolEnv) {
  if (facts.dirty) {
    const ok = await confirm({
      title: LL.editor.frame.refresh.title(),
      text: LL.editor.frame.refresh.text(),
      danger: true,
    });
    if (!ok) return;
    // The draft would otherwise win over the server copy at the next load.
    actor.stop();
    const ctx = actor.getSnapshot().context;
    await deleteDraft(ctx.db ?? appDB(), ctx.pid);
  }
  ui.reload();
}

export function portraits({ actor }: ToolEnv) {
  openPortraitsDialog(actor);
}

export function projectSettings({ actor }: ToolEnv) {
  openProjectSettingsDialog(actor);
}

export function help({ facts }: ToolEnv) {
  openGuide(guideForPage('/project', facts.project?.template));
}

/** The rules' problems that stop a sending; on any, the list opens and a toast gives the count. */
function refusedLocally({ LL, ui, facts }: ToolEnv): boolean {
  if (countQuestions(facts.content) === 0) {
    notify.error(LL.editor.frame.send.empty());
    ui.setTab('problems');
    return true;
  }
  const problems = checkContent(facts.content, { projectType: facts.project!.type });
  if (problems.length === 0) return false;
  notify.error(LL.editor.frame.send.refused({ count: problems.length }));
  ui.setTab('problems');
  return true;
}

function failed(env: ToolEnv, err: unknown) {
  notify.error(err instanceof Error ? err.message : String(err));
  if (err instanceof ApiError && err.status === 400) env.ui.setTab('problems');
}

export async function sendModeration(env: ToolEnv) {
  const { LL, ui, facts } = env;
  if (refusedLocally(env)) return;
  if (!(await confirm({ title: LL.editor.frame.send.title(), text: LL.editor.frame.send.text() }))) return;
  try {
    await setProjectStatus(facts.project!.pid, ProjectStatus.OnModeration);
    notify.success(LL.editor.frame.send.done());
    ui.reload();
  } catch (err) {
    failed(env, err);
  }
}

export async function surveyLink(env: ToolEnv) {
  const { LL, ui, facts } = env;
  const sends = facts.state !== 'readOnly' && facts.project!.editable;
  if (sends) {
    if (refusedLocally(env)) return;
    if (!(await confirm({ title: LL.editor.frame.link.title(), text: LL.editor.frame.link.text() }))) return;
  }
  let link: string;
  try {
    link = (await getSurveyLink(facts.project!.pid)).link;
  } catch (err) {
    failed(env, err);
    return;
  }
  await openModal({
    title: LL.editor.frame.link.dialog(),
    render: (close) =>
      createElement(LinkDialogBody, {
        link,
        close,
        // A target project's link asks who the visitor is first: say so, or it looks like a plain survey.
        note: facts.project!.type === ProjectType.Target ? LL.projects.link.targetNote() : undefined,
      }),
  });
  if (sends) ui.reload();
}

/** Sends one edit and selects what it made (found by where it was put). */
function addAndSelect(
  env: ToolEnv,
  edit: () => void,
  find: () => { kind: 'questionnaire' | 'block' | 'question'; id: string } | null,
) {
  edit();
  const made = find();
  if (made) env.ui.select(made);
}

const content = (env: ToolEnv) => env.actor.getSnapshot().context.doc.content;

export function addQuestionnaire(env: ToolEnv) {
  const at = locate(env.facts.content, env.facts.selection);
  const index = at ? at.qn + 1 : env.facts.content.questionnaires.length;
  addAndSelect(
    env,
    () =>
      env.actor.send({ type: 'content.edit', command: { type: 'questionnaire.add', index, empty: true } }),
    () => {
      const qn = content(env).questionnaires[index];
      return qn ? { kind: 'questionnaire', id: qn.id } : null;
    },
  );
}

export function addBlock(env: ToolEnv) {
  const qnIndex = targetQuestionnaire(env.facts)!;
  const qn = env.facts.content.questionnaires[qnIndex];
  const at = locate(env.facts.content, env.facts.selection);
  const index = at && at.qn === qnIndex && at.block !== null ? at.block + 1 : qn.blocks.length;
  addAndSelect(
    env,
    () =>
      env.actor.send({ type: 'content.edit', command: { type: 'block.add', questionnaireId: qn.id, index } }),
    () => {
      const b = content(env).questionnaires[qnIndex]?.blocks[index];
      return b ? { kind: 'block', id: b.id } : null;
    },
  );
}

export function addQuestion(env: ToolEnv) {
  const tb = targetBlock(env.facts)!;
  const block = env.facts.content.questionnaires[tb.qn].blocks[tb.block];
  const at = locate(env.facts.content, env.facts.selection);
  const index = at && at.question !== null ? at.question + 1 : block.questions.length;
  addAndSelect(
    env,
    () =>
      env.actor.send({ type: 'content.edit', command: { type: 'question.add', blockId: block.id, index } }),
    () => {
      const q = content(env).questionnaires[tb.qn]?.blocks[tb.block]?.questions[index];
      return q ? { kind: 'question', id: q.id } : null;
    },
  );
}

export function duplicate(env: ToolEnv) {
  const sel = env.facts.selection!;
  const command =
    sel.kind === 'questionnaire'
      ? ({ type: 'questionnaire.duplicate', questionnaireId: sel.id } as const)
      : sel.kind === 'block'
        ? ({ type: 'block.duplicate', blockId: sel.id } as const)
        : ({ type: 'question.duplicate', questionId: sel.id } as const);
  const at = locate(env.facts.content, sel)!;
  addAndSelect(
    env,
    () => env.actor.send({ type: 'content.edit', command }),
    () => {
      const c = content(env);
      if (at.block === null) {
        const qn = c.questionnaires[at.qn + 1];
        return qn ? { kind: 'questionnaire', id: qn.id } : null;
      }
      const blocks = c.questionnaires[at.qn].blocks;
      if (at.question === null)
        return blocks[at.block + 1] ? { kind: 'block', id: blocks[at.block + 1].id } : null;
      const q = blocks[at.block].questions[at.question + 1];
      return q ? { kind: 'question', id: q.id } : null;
    },
  );
}

/** Deletes the selection; the neighbour before it (or its parent) becomes the selection. Undo brings it back. */
export function remove(env: ToolEnv) {
  const sel = env.facts.selection!;
  const c = env.facts.content;
  const at = locate(c, sel)!;
  const qn = c.questionnaires[at.qn];
  let next: ToolEnv['facts']['selection'] = null;
  if (at.block === null) {
    const other = c.questionnaires[at.qn - 1] ?? c.questionnaires[at.qn + 1];
    next = other ? { kind: 'questionnaire', id: other.id } : null;
    env.actor.send({
      type: 'content.edit',
      command: { type: 'questionnaire.delete', questionnaireId: sel.id },
    });
  } else if (at.question === null) {
    const other = qn.blocks[at.block - 1] ?? qn.blocks[at.block + 1];
    next = other ? { kind: 'block', id: other.id } : { kind: 'questionnaire', id: qn.id };
    env.actor.send({ type: 'content.edit', command: { type: 'block.delete', blockId: sel.id } });
  } else {
    const b = qn.blocks[at.block];
    const other = b.questions[at.question - 1] ?? b.questions[at.question + 1];
    next = other ? { kind: 'question', id: other.id } : { kind: 'block', id: b.id };
    env.actor.send({ type: 'content.edit', command: { type: 'question.delete', questionId: sel.id } });
  }
  env.ui.select(next);
}

export function move(env: ToolEnv, by: -1 | 1) {
  const sel = env.facts.selection!;
  const at = locate(env.facts.content, sel)!;
  if (at.block === null) {
    env.actor.send({
      type: 'content.edit',
      command: { type: 'questionnaire.move', questionnaireId: sel.id, index: at.qn + by },
    });
  } else if (at.question === null) {
    env.actor.send({
      type: 'content.edit',
      command: { type: 'block.move', blockId: sel.id, index: at.block + by },
    });
  } else {
    const block = env.facts.content.questionnaires[at.qn].blocks[at.block];
    env.actor.send({
      type: 'content.edit',
      command: { type: 'question.move', questionId: sel.id, toBlockId: block.id, index: at.question + by },
    });
  }
}
