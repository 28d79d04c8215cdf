// Warm Parquet workers (thread start plus parquet-wasm compiled and instantiated): at most 2 kept idle.
import { WarmWorkers } from '../warm-workers.js';

export const parquetWorkers = new WarmWorkers('parquet/worker', 2);
