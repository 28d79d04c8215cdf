// OQS: parse a JSON filter, compile it to a predicate, and find the spatial constraint an index can use.
export { parseOqs, OqsError } from './parse.js';
export { compileOqs, deepEqual, type Predicate } from './compile.js';
export { spatialConstraints, type SpatialConstraint } from './constraint.js';
export { resolvePath } from './resolve.js';
export type { OqsNode, Operand } from './ast.js';
