// Warm CSV parsing workers (thread start plus the parser's modules compiled): at most 4 kept idle.
import { WarmWorkers } from '../warm-workers.js';

export const csvParsers = new WarmWorkers('csv/worker', 4);
