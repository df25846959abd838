import type { TranslationFunctions } from '../i18n/i18n-types';
import { newBlock, newQuestionnaire } from './content/factory';
import { importQuestions } from './content/import';
import type { ProjectContent } from './content/model';
import type { DemoRefusedAction } from './demoRules';

// The demo researcher's account (docs/decisions/guides.md): a DemoResearcher builds, saves and
// previews questionnaires like a researcher, but nothing of theirs reaches real respondents. So
// the two calls that put a project in front of respondents are refused: sending it for moderation
// and taking its survey link (which sends it too). The server refuses them with 403 and a message
// saying why; the UI does not offer them (a 403 signs the client out, spec section 8). The rules
// themselves are in demoRules.ts.

export * from './demoRules';

/** The message a refused demo action answers with. */
export function demoRefusalText(action: DemoRefusedAction): (t: TranslationFunctions) => string {
  return (t) => t.projects.demoRefused[action]();
}

/**
 * The example project's questionnaire: two named blocks written in the "Import from list" format
 * in the user's language, so it goes through the same parser as a user's paste and always matches
 * today's content model.
 */
export function exampleContent(t: TranslationFunctions): ProjectContent {
  const ex = t.guides.demo.example;
  const block = (name: string, list: string) => {
    const result = importQuestions(list);
    if (!result.ok) throw new Error(`the example questionnaire does not parse: line ${result.line}`);
    return newBlock({ name, questions: result.blocks.flatMap((b) => b.questions) });
  };
  return {
    questionnaires: [
      newQuestionnaire({
        blocks: [block(ex.block1(), ex.questions1()), block(ex.block2(), ex.questions2())],
      }),
    ],
    portraits: [],
  };
}
