// PROVISIONAL: the report JSON's `quality` and `field` (issue 31) as the server's draft of
// src/domain/responses.ts has them; replaced by imports from there once it lands.

export interface ReportQualityView {
  completed: number;
  flagged: number;
  percent: number;
  flags: { name: string; count: number }[];
  excluded: number;
  speeder: {
    percent: number;
    medianSeconds: number | null;
    thresholdSeconds: number | null;
    minCompleted: number;
  };
}

export interface FieldPortraitView {
  id: string;
  name: string;
  target: number;
  accepted: number;
  excluded: number;
  perHour: number;
  state: 'full' | 'eta' | 'notAtThisPace';
  eta: number | null;
}

export interface ReportFieldView {
  at: number;
  portraits: FieldPortraitView[];
}
