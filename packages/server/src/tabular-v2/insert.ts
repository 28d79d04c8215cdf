// A streamed insert: record batches go into a transaction as they are decoded; a bad one leaves nothing applied.
import { HaloclineError, isHaloclineError, type Table, type Transaction, toRecordBatches } from '@halocline/engine';
import { type RecordBatch, type Schema, Table as ArrowTable } from 'apache-arrow';

/**
 * Inserts the batches of `batches` as one atomic change; resolves with the row count. Without `tx`
 * each batch is validated and added to a transaction of this request as it arrives, committed after
 * the last one (rolled back on any error). Inside the caller's transaction `tx` each batch is
 * validated as it arrives and all of them are added after the last one, so a bad batch (or a broken
 * body) adds nothing to it. Errors say at which row of the body the failing batch starts.
 */
export async function insertStream(table: Table, tx: Transaction | undefined, schema: Schema, batches: AsyncIterable<RecordBatch>): Promise<number> {
  const own = tx ? undefined : await table.begin();
  const held: RecordBatch[] = [];
  let rows = 0;
  try {
    for await (const b of batches) {
      if (b.numRows === 0) continue;
      try {
        if (own) await own.insert(b);
        else held.push(...toRecordBatches(schema, b, { table: table.name }));
      } catch (e) {
        throw isHaloclineError(e, 'InvalidData') && rows > 0 ? new HaloclineError('InvalidData', `in the record batch starting at row ${rows} of the body: ${e.message}`, { ...e, row: rows + Number((e as { row?: number }).row ?? 0) }) : e;
      }
      rows += b.numRows;
    }
    if (tx && held.length > 0) await tx.insert(new ArrowTable(schema, held));
    if (own) await own.commit();
    return rows;
  } catch (e) {
    if (own?.state === 'active') await own.rollback();
    throw e;
  }
}
