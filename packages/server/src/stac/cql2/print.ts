// AST → CQL2 text and JSON: the inverse of the parsers (round-trip tested), used for links and tests.
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import GeoJSONReader from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
import WKTWriter from 'jsts/org/locationtech/jts/io/WKTWriter.js';
import type { Expr, Operand } from './ast.js';

const reader = new GeoJSONReader(new GeometryFactory());
const writer = new WKTWriter(new GeometryFactory());

/** CQL2 text of an expression, fully parenthesised. */
export function toCql2Text(e: Expr): string {
  switch (e.kind) {
    case 'and': case 'or': return `(${e.args.map(toCql2Text).join(` ${e.kind.toUpperCase()} `)})`;
    case 'not': return `NOT (${toCql2Text(e.arg)})`;
    case 'literal': return e.value ? 'TRUE' : 'FALSE';
    case 'compare': return `${text(e.left)} ${e.op} ${text(e.right)}`;
    case 'like': return `${text(e.arg)} LIKE ${quote(e.pattern)}`;
    case 'between': return `${text(e.arg)} BETWEEN ${text(e.low)} AND ${text(e.high)}`;
    case 'in': return `${text(e.arg)} IN (${e.list.map(text).join(', ')})`;
    case 'isNull': return `${text(e.arg)} IS NULL`;
    case 'spatial': case 'temporal': return `${e.op.toUpperCase()}(${text(e.left)}, ${text(e.right)})`;
  }
}

/** CQL2 JSON of an expression. */
export function toCql2Json(e: Expr): unknown {
  switch (e.kind) {
    case 'and': case 'or': return { op: e.kind, args: e.args.map(toCql2Json) };
    case 'not': return { op: 'not', args: [toCql2Json(e.arg)] };
    case 'literal': return e.value;
    case 'compare': return { op: e.op, args: [json(e.left), json(e.right)] };
    case 'like': return { op: 'like', args: [json(e.arg), e.pattern] };
    case 'between': return { op: 'between', args: [json(e.arg), json(e.low), json(e.high)] };
    case 'in': return { op: 'in', args: [json(e.arg), e.list.map(json)] };
    case 'isNull': return { op: 'isNull', args: [json(e.arg)] };
    case 'spatial': case 'temporal': return { op: e.op, args: [json(e.left), json(e.right)] };
  }
}

function text(o: Operand): string {
  switch (o.kind) {
    case 'property': return `"${o.name.replace(/"/g, '""')}"`;
    case 'string': return quote(o.value);
    case 'number': return String(o.value);
    case 'boolean': return o.value ? 'TRUE' : 'FALSE';
    case 'timestamp': return `TIMESTAMP(${quote(o.value)})`;
    case 'date': return `DATE(${quote(o.value)})`;
    case 'interval': return `INTERVAL(${quote(o.start)}, ${quote(o.end)})`;
    case 'geometry': return writer.write(reader.read(o.value));
    case 'bbox': return `BBOX(${o.value.join(', ')})`;
  }
}

function json(o: Operand): unknown {
  switch (o.kind) {
    case 'property': return { property: o.name };
    case 'string': case 'number': case 'boolean': return o.value;
    case 'timestamp': return { timestamp: o.value };
    case 'date': return { date: o.value };
    case 'interval': return { interval: [o.start, o.end] };
    case 'geometry': return o.value;
    case 'bbox': return { bbox: o.value };
  }
}

function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
