import type { ComponentType } from 'react';
import type { QuestionCategory } from '../../../../domain/content/model';
import OneAnswerFields from './oneAnswer';
import FewAnswersFields from './fewAnswers';
import ScreeningFields from './screening';
import QualificationFields from './qualification';
import FromToFields from './fromTo';
import OpenFields from './open';
import StarRatingFields from './starRating';
import SliderFields from './slider';
import NpsCategoryFields from './nps';
import SortableFields from './sortable';
import MatrixFields from './matrix';
import RegionFields from './regionAuto';
import CityFields from './cityAuto';
import type { FieldsProps } from './types';

// The question panel's fields, one component per category (STYLE.md: a registry like excalidraw's
// actions). Adding a category is one file here and one line below; the shared frame (text, category,
// redirect, recall, database, customParams) is QuestionPanel.
export const CATEGORY_FIELDS: Record<QuestionCategory, ComponentType<FieldsProps>> = {
  oneAnswer: OneAnswerFields,
  fewAnswers: FewAnswersFields,
  screening: ScreeningFields,
  qualification: QualificationFields,
  fromTo: FromToFields,
  open: OpenFields,
  starRating: StarRatingFields,
  slider: SliderFields,
  nps: NpsCategoryFields,
  sortable: SortableFields,
  matrix: MatrixFields,
  regionAuto: RegionFields,
  cityAuto: CityFields,
};
