// CPU profiles of one phase of a benchmark (node:inspector), written as .cpuprofile files for `--profile`.
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';

/** A started profiler; `stop(file)` writes the profile and ends the session. */
export interface Profiler {
  stop(file: string): Promise<void>;
}

/** Starts the V8 CPU profiler in this process. */
export async function startProfile(): Promise<Profiler> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
