// Types of lz4js (the package ships none): LZ4 frame compress/decompress.
declare module 'lz4js' {
  const lz4: {
    compress(data: Uint8Array | number[], maxSize?: number): number[] | Uint8Array;
    decompress(data: Uint8Array | number[], maxSize?: number): number[] | Uint8Array;
  };
  export default lz4;
}
