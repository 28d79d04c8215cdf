// v1 type names: every name GET /schema answers reads back as the same type, so a schema copied through v1 keeps its units.
import { DateDay, DateMillisecond, Float32, Int64, TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, TimestampSecond, Utf8, type DataType } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { TYPE_NAMES, arrowType, v1TypeName } from './types.js';

describe('v1 type names', () => {
  it('read back every type a table may have (v2 makes any timestamp unit and date64) as that type', () => {
    const types: DataType[] = [
      new TimestampSecond('UTC'), new TimestampMillisecond('UTC'), new TimestampMicrosecond('UTC'), new TimestampNanosecond('UTC'),
      new DateDay(), new DateMillisecond(), new Int64(), new Float32(), new Utf8(),
    ];
    for (const t of types) expect(String(arrowType(v1TypeName(t, false))), String(t)).toBe(String(t));
    expect(v1TypeName(new TimestampNanosecond('UTC'), false)).toBe('timestamp[ns]');
    expect(v1TypeName(new TimestampMillisecond('UTC'), false)).toBe('timestamp');
  });
  it('give every accepted name a type whose canonical name is accepted too', () => {
    for (const name of TYPE_NAMES) {
      const t = arrowType(name)!;
      expect(arrowType(v1TypeName(t, false))?.toString(), name).toBe(t.toString());
    }
  });
});
