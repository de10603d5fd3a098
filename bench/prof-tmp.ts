import { openaiSdk, harnessAdapter, anthropicSdk } from './fixtures/consumers.js';
import { floorFetch } from './peers/floor-fetch.js';
import { nestcastReplay } from './peers/nestcast-replay.js';
import { renderedFloorFetch } from './fixtures/rendered-50.js';
import { MODEL } from './fixtures/stream-50.js';
import { anthropicMessages } from '../toolkit/protocols/anthropic-messages/anthropic-messages.js';
const which = process.argv[2] ?? 'openai';
const consumer = which === 'adapter' ? harnessAdapter : which === 'anthropic' ? anthropicSdk : openaiSdk;
const upstream = which === 'anthropic' ? renderedFloorFetch(anthropicMessages, MODEL) : floorFetch;
const bind = (f: typeof fetch) => consumer.bind(f, 'http://127.0.0.1:9/v1');
const floor = bind(upstream);
const nest = bind(await nestcastReplay(upstream, bind));
for (let r = 0; r < 4; r++) {
  for (const [name, run] of [['floor', floor], ['nest', nest]] as const) {
    const t = performance.now();
    for (let i = 0; i < 1000; i++) await run();
    console.log(which, name, ((performance.now() - t)).toFixed(0), 'µs/call');
  }
}
