// The canvas layout worker's messages (src/workers/layout.worker.ts): the page sends the content's
// structure (ids only, never texts), the worker answers node positions. Small on purpose: the
// structure of 1 000 questions is about 30 KB to copy.

export interface LayoutBlock {
  id: string;
  questions: string[];
  /** Some question of the block redirects to "complete current block": it gets an end node. */
  end: boolean;
}

export interface LayoutQuestionnaire {
  id: string;
  blocks: LayoutBlock[];
  /** Some redirect goes to "new questionnaire": it gets a terminal node. */
  newQn: boolean;
}

export interface LayoutStructure {
  questionnaires: LayoutQuestionnaire[];
}

export type Positions = Record<string, { x: number; y: number }>;

export type LayoutRequest = { type: 'layout'; id: number; structure: LayoutStructure };
export type LayoutResponse = { type: 'layout'; id: number; positions: Positions; ms: number };

/** The cache key of a structure: the same ids in the same places give the same positions. */
export function structureKey(s: LayoutStructure): string {
  // FNV-1a over the ids in order; collisions only cost a wrong layout until the next edit.
  let h = 0x811c9dc5;
  const add = (str: string) => {
    for (let i = 0; i < str.length; i++) {
      h ^= str.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  };
  for (const qn of s.questionnaires) {
    add(`Q${qn.id}${qn.newQn ? '+' : ''}`);
    for (const b of qn.blocks) {
      add(`B${b.id}${b.end ? '+' : ''}`);
      for (const q of b.questions) add(`q${q}`);
    }
  }
  return `${(h >>> 0).toString(36)}:${s.questionnaires.length}`;
}
