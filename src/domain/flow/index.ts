export * from './flow';
export * from './reply';
export { arrange } from './shuffle';
export * from './attributes';
