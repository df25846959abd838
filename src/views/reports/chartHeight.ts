/** The height of every report chart (its box keeps it before the chart library arrives). */
export const CHART_HEIGHT = 220;
/** The crosstab's grouped bars (CompareChart.tsx). */
export const COMPARE_CHART_HEIGHT = 240;
