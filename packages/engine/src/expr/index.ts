// The query language: parse → bind → typecheck → compile to kernels, prune with zone maps.
export type { ArithOp, BinaryOp, CompareOp, Expr, ExprKind, Literal, LogicalOp, SpatialOp, UnaryOp } from './ast.js';
export type { LiteralValue, PhysicalKind, TemporalType, TimeUnitName, TypedColumn, TypedExpr, TypedKind, ValueType } from './typed.js';
export type { ColumnArrays, FilterKernel, ZoneMaps, ZoneStats } from './kernel.js';
export type { Vars } from './bind.js';
export type { PreparedFilter } from './prepare.js';
export type { CompiledFilter } from './compile.js';
export { parse } from './parser.js';
export { bind } from './bind.js';
export { typecheck, typecheckValue } from './typecheck.js';
export { prepareFilter } from './prepare.js';
export { compileFilter } from './compile.js';
export { zoneAllMatch, zonePredicate, zoneTests } from './prune.js';
export { evaluateRow } from './reference.js';
