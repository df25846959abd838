/** The height of every report chart (its box keeps it before the chart library arrives). */
export const CHART_HEIGHT = 220;
