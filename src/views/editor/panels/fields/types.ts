import type { Question } from '../../../../domain/content/model';

/** What each category's fields get: the question and whether it may be changed now. */
export interface FieldsProps {
  question: Question;
  disabled: boolean;
  /** Where the question is ("Block 2 › Question 4"): messages about its parts start with it. */
  where?: string;
}
