// Arrow IPC body codecs: LZ4 frame (lz4js) and ZSTD (fzstd) for compressed record batches as pyarrow writes them.
import { CompressionType, compressionRegistry } from 'apache-arrow';
import { decompress as zstdDecompress } from 'fzstd';
import lz4 from 'lz4js';

let installed = false;

/** Registers the decoders (and an LZ4 encoder) with apache-arrow once per process. */
export function installCodecs(): void {
  if (installed) return;
  installed = true;
  compressionRegistry.set(CompressionType.LZ4_FRAME, {
    encode: (data) => Uint8Array.from(lz4.compress(data)),
    decode: (data) => Uint8Array.from(lz4.decompress(data)),
  });
  compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => zstdDecompress(data) });
}
