// Type checks a spatial operator: lowers it to bounding-box comparisons (+ the exact predicate).
import type { Schema } from 'apache-arrow';
import type { SpatialExpr } from '../expr/ast.js';
import { typeError } from '../expr/fail.js';
import * as fold from '../expr/fold.js';
import type { TypedColumn, TypedExpr } from '../expr/typed.js';
import { columnOf } from '../expr/types.js';
import { fieldInfo } from '../schema/metadata.js';
import { bboxColumn, type Side } from './bbox.js';
import { spatialColumns } from './columns.js';
import { bboxOf, readGeometry, topologyProblem } from './parse.js';

/**
 * `target <op> "<WKT>"` as a typed boolean expression. `target` is a geometry column (its hidden
 * box columns hold each row's box) or a latitude or longitude column (the point of its pair). The
 * row box R and the operand's box Q give a necessary condition, which zone maps, the R-tree and the
 * kernel evaluate at full speed: `~` is exactly "R intersects Q" (a superset of `intersect`);
 * `intersect` adds the exact predicate to it, `within` needs R inside Q, `contains` R around Q.
 * The exact predicate comes last in the conjunction, so it runs only on candidate rows.
 * @example
 * lowerSpatial(e, schema, operand, query) // (and (<= geom.xmin 10) ... (geo:intersect geom "POLYGON ..."))
 */
export function lowerSpatial(e: SpatialExpr, schema: Schema, operand: TypedExpr, query: string): TypedExpr {
  const target = targetOf(e, schema, query);
  if (operand.kind === 'literal' && operand.value === null) return fold.NULL;
  if (operand.kind !== 'literal' || typeof operand.value !== 'string') {
    throw typeError(query, e.operand, `the operand of '${e.op}' must be a WKT string (a literal or a bind variable) at ${e.operand.pos}`);
  }
  let box;
  let wkt: string;
  try {
    const geometry = readGeometry(operand.value);
    // exact predicates on an invalid operand would fail (jsts TopologyException) row by row
    const problem = topologyProblem(geometry);
    if (problem) throw new Error(`it is not a valid geometry: ${problem}`);
    box = bboxOf(geometry);
    wkt = operand.value;
  } catch (err) {
    throw typeError(query, e.operand, `the operand of '${e.op}' is not valid WKT at ${e.operand.pos}: ${(err as Error).message}`);
  }
  // an empty operand intersects, contains and lies around nothing
  if (box === null) return fold.literal('bool', false);
  const [qx0, qy0, qx1, qy1] = box;
  const side = (s: Side): TypedColumn => target.sides[s];
  const cmp = (op: '<=' | '>=', col: TypedColumn, v: number): TypedExpr => fold.compare(op, col, fold.literal('float', v));
  const all = (parts: TypedExpr[]): TypedExpr => parts.reduce((a, b) => fold.logical('and', a, b));
  const boxTest =
    e.op === 'within'
      ? [cmp('>=', side('xmin'), qx0), cmp('<=', side('xmax'), qx1), cmp('>=', side('ymin'), qy0), cmp('<=', side('ymax'), qy1)]
      : e.op === 'contains'
        ? [cmp('<=', side('xmin'), qx0), cmp('>=', side('xmax'), qx1), cmp('<=', side('ymin'), qy0), cmp('>=', side('ymax'), qy1)]
        : [cmp('<=', side('xmin'), qx1), cmp('>=', side('xmax'), qx0), cmp('<=', side('ymin'), qy1), cmp('>=', side('ymax'), qy0)];
  if (e.op === '~') return all(boxTest);
  return all([...boxTest, { kind: 'geo', op: e.op, args: target.args, wkt, type: 'bool' }]);
}

interface Target {
  readonly sides: Readonly<Record<Side, TypedColumn>>;
  /** What the exact predicate reads: [geometry, xmin, ymin, xmax, ymax] (its stored box) or [lon, lat]. */
  readonly args: readonly TypedColumn[];
}

function targetOf(e: SpatialExpr, schema: Schema, query: string): Target {
  const arg = e.arg;
  const what = `'${e.op}' needs a geometry column or a latitude/longitude column on its left`;
  if (arg.kind !== 'column') throw typeError(query, arg, `${what} at ${arg.pos}`);
  const field = schema.fields.find((f) => f.name === arg.name);
  if (!field) throw typeError(query, arg, `unknown column '${arg.name}' at ${arg.pos}`, arg.name);
  const col = (name: string): TypedColumn => columnOf(name, schema.fields.find((f) => f.name === name)!.type) as TypedColumn;
  const klass = fieldInfo(field).class;
  if (klass === 'geometry') {
    const hidden = (s: Side): TypedColumn => ({ kind: 'column', name: bboxColumn(arg.name, s), physical: 'float64', unit: null, type: 'float' });
    const sides = { xmin: hidden('xmin'), ymin: hidden('ymin'), xmax: hidden('xmax'), ymax: hidden('ymax') };
    // the box rides along: a point row is tested on its box (the point) without decoding the geometry
    return { sides, args: [col(arg.name), sides.xmin, sides.ymin, sides.xmax, sides.ymax] };
  }
  const pair = spatialColumns(schema).points.find((p) => p.lat === arg.name || p.lon === arg.name);
  if (pair) {
    const [lon, lat] = [col(pair.lon), col(pair.lat)];
    return { sides: { xmin: lon, xmax: lon, ymin: lat, ymax: lat }, args: [lon, lat] };
  }
  const why = klass === 'latitude' || klass === 'longitude' ? `column '${arg.name}' (${klass}) has no ${klass === 'latitude' ? 'longitude' : 'latitude'} column to pair with` : `column '${arg.name}' has no class geometry, latitude or longitude`;
  throw typeError(query, arg, `${what}; ${why} (at ${arg.pos})`, arg.name);
}
