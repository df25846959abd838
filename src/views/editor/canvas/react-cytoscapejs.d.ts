// react-cytoscapejs ships no types; this is the part the canvas uses.
declare module 'react-cytoscapejs' {
  import type { Component, CSSProperties } from 'react';
  import type { Core, ElementDefinition, StylesheetJson } from 'cytoscape';
  export interface CytoscapeComponentProps {
    elements: ElementDefinition[];
    stylesheet?: StylesheetJson;
    cy?: (cy: Core) => void;
    style?: CSSProperties;
    className?: string;
    minZoom?: number;
    maxZoom?: number;
    wheelSensitivity?: number;
    textureOnViewport?: boolean;
    hideEdgesOnViewport?: boolean;
    motionBlur?: boolean;
    pixelRatio?: number | 'auto';
    boxSelectionEnabled?: boolean;
    autounselectify?: boolean;
    autoungrabify?: boolean;
    layout?: unknown;
  }
  export default class CytoscapeComponent extends Component<CytoscapeComponentProps> {}
}
