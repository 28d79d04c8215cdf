// An OQS filter the engine cannot evaluate (geometry operators, match-by-example, nested paths),
// checked against the table's columns and with its literals in the form `list` writes the column's
// values (int64 as bigints, which compare exactly with both of its forms), so the row-by-row test over
// JSON rows compares like with like.
import { parseDatetime } from '@halocline/engine';
import { DataType, type Field, type Schema, TimeUnit } from 'apache-arrow';
import { badRequest } from '../errors.js';
import { roundedJson } from '../exact-json.js';
import type { OqsNode, Operand } from '../oqs/index.js';
import { isoInstant } from './rows.js';
import { int64FilterValue, isInt64 } from './validate-rows.js';

type CompareNode = Extract<OqsNode, { kind: 'compare' }>;
type CompareOp = CompareNode['op'];

/**
 * `n` for the row-by-row test of a table of `schema`: 400 for a path naming no column, a spatial
 * operator on a column that holds no WKT geometry, or an unsafe double compared with an int64/uint64
 * column. Literals compared with a column are rewritten: an integer for an int64/uint64 column (a
 * number, a decimal string, or a bigint as the v1 scope reads integers beyond 2^53) into a bigint,
 * which compares exactly with the numbers and decimal strings `list` writes for the column; an
 * ISO-8601 string for a timestamp column into the column's text (`rows.ts`), which orders as the
 * instants do, an instant between two of the unit's becoming the comparison with the one before it
 * (and a fraction compared with an int64 column likewise). Any other bigint becomes its nearest
 * double, as JSON.parse would have read it.
 * @example
 * rowFilter(parseOqs({ '#GREATER_THAN_OR_EQUALS': ['$time', '2024-01-01T00:00:48Z'] }), schema)
 * // time >= '2024-01-01T00:00:48.000Z' for a timestamp[ms] column
 */
export function rowFilter(n: OqsNode, schema: Schema): OqsNode {
  const fields = new Map(schema.fields.map((f) => [f.name, f]));
  // the column a path starts with (400 when none)
  const column = (path: readonly string[], text: string): Field => {
    const f = fields.get(path[0]!);
    if (!f) throw badRequest(`filter: unknown column '${path[0]}' in ${text}; the table's columns are ${[...fields.keys()].join(', ')}`, 'QueryType');
    return f;
  };
  // the column an operand is (undefined for a literal or a nested path)
  const field = (op: Operand): Field | undefined => {
    if (op.kind !== 'path') return undefined;
    const f = column(op.path, op.text);
    return op.path.length === 1 ? f : undefined;
  };
  const rec = (x: OqsNode): OqsNode => {
    switch (x.kind) {
      case 'all':
        return x;
      case 'and':
      case 'or':
        return { kind: x.kind, items: x.items.map(rec) };
      case 'not':
        return { kind: 'not', item: rec(x.item) };
      case 'compare':
        return compare(x, field);
      case 'in': {
        const f = field(x.value);
        if (!f || x.list.kind !== 'literal' || !Array.isArray(x.list.value)) return { ...x, value: rounded(x.value), list: rounded(x.list) };
        return { ...x, list: { kind: 'literal', value: x.list.value.map((v) => equalTo(v, f)) } };
      }
      case 'null':
      case 'nonNull':
        field(x.value);
        return x;
      case 'spatial':
        for (const side of [x.left, x.right]) if (side.kind === 'path') checkGeometry(column(side.path, side.text));
        return x;
      case 'match': {
        // an integer beyond 2^53 is compared as `#EQUALS` compares it (exactly with an int64 column)
        const entries = Object.entries(x.example).map(([k, v]) => {
          const f = column([k], `match-by-example key "${k}"`);
          return [k, typeof v === 'bigint' ? equalTo(v, f) : roundedJson(v)] as const;
        });
        return { kind: 'match', example: Object.fromEntries(entries) };
      }
    }
  };
  return rec(n);
}

const FLIP: Readonly<Record<CompareOp, CompareOp>> = { eq: 'eq', gt: 'lt', gte: 'lte', lt: 'gt', lte: 'gte' };

// a column compared with a literal, the column on the left and the literal in the column's form
function compare(n: CompareNode, field: (op: Operand) => Field | undefined): CompareNode {
  const [l, r] = [field(n.left), field(n.right)];
  if ((l === undefined) === (r === undefined)) return { ...n, left: rounded(n.left), right: rounded(n.right) };
  const [path, lit, op] = l !== undefined ? [n.left, n.right, n.op] : [n.right, n.left, FLIP[n.op]];
  if (lit.kind !== 'literal') return n;
  const f = (l ?? r)!;
  if (isInt64(f)) {
    const value = wideValue(lit.value, f);
    if (typeof value !== 'number' || op === 'eq' || Number.isNaN(value)) return { kind: 'compare', op, left: path, right: { kind: 'literal', value } };
    // a fraction lies between two integers (an infinity beyond them all): above x is above the integer
    // below x, at or below x at or below it
    const below = Number.isFinite(value) ? BigInt(Math.floor(value)) : value > 0 ? BEYOND : -BEYOND;
    return { kind: 'compare', op: op === 'gt' || op === 'gte' ? 'gt' : 'lte', left: path, right: { kind: 'literal', value: below } };
  }
  const value = roundedJson(lit.value);
  const t = instant(value, f);
  if (t === undefined) return value === lit.value ? n : { kind: 'compare', op, left: path, right: { kind: 'literal', value } };
  if (t.exact || op === 'eq') return { kind: 'compare', op, left: path, right: { kind: 'literal', value: t.exact ? t.text : lit.value } };
  // the stored instants are whole units: above x is above the unit before x, at or below x at or below it
  return { kind: 'compare', op: op === 'gt' || op === 'gte' ? 'gt' : 'lte', left: path, right: { kind: 'literal', value: t.text } };
}

// a literal tested for equality with column `f` (`#EQUALS`, `#WITHIN`), in the column's form
function equalTo(v: unknown, f: Field): unknown {
  if (isInt64(f)) return wideValue(v, f);
  const value = roundedJson(v);
  const t = instant(value, f);
  return t?.exact ? t.text : value;
}

// a literal operand with its bigints as JSON.parse reads them
function rounded(op: Operand): Operand {
  if (op.kind !== 'literal') return op;
  const value = roundedJson(op.value);
  return value === op.value ? op : { kind: 'literal', value };
}

// an integer literal for an int64/uint64 column as a bigint, which compares exactly with the numbers and
// decimal strings `list` writes for the column's values (see compileOqs); a fraction stays a number,
// and a value of another type as it is
function wideValue(v: unknown, f: Field): unknown {
  const b = int64FilterValue(v, f.name);
  return typeof b === 'number' && Number.isInteger(b) ? BigInt(b) : b;
}

/** Beyond every int64 and uint64 value. */
const BEYOND = 2n ** 64n;

function checkGeometry(f: Field): void {
  if (DataType.isUtf8(f.type) || DataType.isLargeUtf8(f.type)) return;
  const why = f.metadata.get('class') === 'geometry' ? 'holds WKB (binary) geometry, which v1 filters cannot read' : `is ${String(f.type).toLowerCase()}, not a geometry column`;
  throw badRequest(`filter: column '${f.name}' ${why}; spatial operators need a geometry (WKT) column`, 'QueryType');
}

const NS_PER: Readonly<Record<TimeUnit, bigint>> = { [TimeUnit.SECOND]: 1_000_000_000n, [TimeUnit.MILLISECOND]: 1_000_000n, [TimeUnit.MICROSECOND]: 1000n, [TimeUnit.NANOSECOND]: 1n };

// an ISO-8601 literal for timestamp column `f`: the column's text of the instant, or (not exact) of
// the unit before it; undefined for other values and columns
function instant(v: unknown, f: Field): { text: string; exact: boolean } | undefined {
  if (typeof v !== 'string' || !DataType.isTimestamp(f.type)) return undefined;
  // the engine's reading, so a string means the same instant here as in its filters and inserts
  const ns = parseDatetime(v);
  if (ns === null) return undefined;
  const unit = f.type.unit;
  const per = NS_PER[unit];
  let q = ns / per;
  if (ns % per < 0n) q -= 1n;
  return { text: isoInstant(unit)(q), exact: q * per === ns };
}
